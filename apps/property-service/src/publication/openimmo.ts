import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { AgencyContact } from '../channels/index.js';
import {
  isPublished,
  publicAddress,
  type ListingMediaSnapshot,
  type ListingPropertySnapshot,
  type ListingSnapshot,
} from '../listings/index.js';

/*
 * OpenImmo 1.2.7 export: pure functions from listing snapshots to the XML document portals pull.
 *
 * Element names, their order inside each parent and which of them are mandatory were checked
 * against classes generated from the official openimmo_127b.xsd (the ujamii/openimmo PHP library,
 * src/API/*.php: Openimmo, Uebertragung, Anbieter, Immobilie, Objektkategorie, Nutzungsart,
 * Vermarktungsart, Objektart, Geo, Land, Preise, Kaufpreis, AussenCourtage, Flaechen,
 * ZustandAngaben, Energiepass, Freitexte, Anhaenge, Anhang, Daten, VerwaltungTechn, Aktion), and
 * against public exporters and importers writing `energiepass`/`epart`/`openimmo_obid`.
 * Children are written in the schema's sequence order (e.g. `freitexte` before `anhaenge`), and
 * the tests validate every document against the official XSD (test/validation/openimmo).
 *
 * The `kontaktperson` every `immobilie` needs is the channel's agency contact, a business role;
 * nothing of a prospect, no commission note. The address goes out at its precision, with
 * `objektadresse_freigeben` false below `exact`. Documents are never attachments.
 *
 * The same document serves the pull feed (defaults: a full transfer, every listing CHANGE, media
 * linked by URL, `location="EXTERN"`) and the ZIP a portal's import account takes
 * (portals/package.ts): media inside the ZIP (`location="INTERN"`, `daten/pfad` the path in the
 * archive), a partial transfer (`umfang="TEIL"`) and DELETE items. A DELETE item carries only
 * what the schema requires (objektkategorie, geo with postal code and city, kontaktperson,
 * verwaltung_techn), as public exporters write it: no prices, texts or attachments.
 */

export const OPENIMMO_VERSION = '1.2.7';
const SENDER_SOFTWARE = 'property-service';
const SENDER_VERSION = '1.0';

interface OpenImmoListingFields {
  listingId: string;
  snapshot: ListingSnapshot;
  /** The object's id at the portal (`objektnr_extern` and `openimmo_obid`); default `listingId`. */
  objectId?: string;
  /** `CHANGE` (insert or update, the default) or `DELETE` (take the object off the portal). */
  action?: OpenImmoAction;
}

export type OpenImmoAction = 'CHANGE' | 'DELETE';

/** A listing with where its media are: a URL (`location="EXTERN"`) or a path inside the transfer's ZIP (`location="INTERN"`). */
export type OpenImmoListing = OpenImmoListingFields &
  (
    | {
        /** Where a portal downloads the medium (an absolute URL). */
        mediaUrl: (medium: ListingMediaSnapshot) => string;
        mediaPath?: undefined;
      }
    | {
        /** The medium's path inside the ZIP the document travels in. */
        mediaPath: (medium: ListingMediaSnapshot) => string;
        mediaUrl?: undefined;
      }
  );

export interface OpenImmoDocumentInput {
  /** The provider's id at the portals: `anbieternr` and `openimmo_anid`. */
  anbieterId: string;
  /** The provider's company name (`firma`). */
  firma: string;
  /** The agency contact of every listing (`kontaktperson`): required as soon as there is a listing. */
  contact: AgencyContact | null;
  /** One listing (a single export) or many (the feed), in the order given. */
  listings: readonly OpenImmoListing[];
  /** When the document is generated (RFC 3339): `timestamp` of the transfer and `stand_vom` of every listing. */
  generatedAt: string;
  /**
   * `VOLL` (the default): the document is the provider's whole stock, a portal removes whatever it
   * does not hold. `TEIL`: only the objects it holds change, each by its `aktion`.
   */
  umfang?: 'VOLL' | 'TEIL';
}

/** ISO 3166-1 alpha-2 → alpha-3 (`land iso_land`); a country not listed is left out of `geo`. */
export const ISO_ALPHA3: Readonly<Record<string, string>> = {
  AT: 'AUT',
  BE: 'BEL',
  CH: 'CHE',
  CZ: 'CZE',
  DE: 'DEU',
  DK: 'DNK',
  ES: 'ESP',
  FR: 'FRA',
  GB: 'GBR',
  IT: 'ITA',
  LI: 'LIE',
  LU: 'LUX',
  NL: 'NLD',
  PL: 'POL',
  US: 'USA',
};

type Property = ListingPropertySnapshot;
type Group = 'TITELBILD' | 'BILD' | 'GRUNDRISS';

const OBJEKTART: Record<Property['type'], string> = {
  apartment: 'wohnung',
  house: 'haus',
  land: 'grundstueck',
  commercial: 'buero_praxen',
  parking: 'parken',
};

/** The whole document: `<openimmo>` with the transfer header, the provider and one `<immobilie>` per listing. */
export function openImmoDocument(input: OpenImmoDocumentInput): string {
  const date = dateOf(input.generatedAt);
  // Characters XML cannot carry (control characters in a pasted title) are dropped, not fatal.
  const root = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' }).ele('openimmo');
  const umfang = input.umfang ?? 'VOLL';
  root.ele('uebertragung').att({
    art: 'OFFLINE',
    umfang,
    modus: modus(umfang, input.listings),
    version: OPENIMMO_VERSION,
    sendersoftware: SENDER_SOFTWARE,
    senderversion: SENDER_VERSION,
    timestamp: input.generatedAt,
  });
  const anbieter = root.ele('anbieter');
  text(anbieter, 'anbieternr', input.anbieterId);
  text(anbieter, 'firma', input.firma);
  text(anbieter, 'openimmo_anid', input.anbieterId);
  if (input.listings.length > 0 && !input.contact)
    throw new TypeError('an OpenImmo listing needs the agency contact (kontaktperson)');
  for (const listing of input.listings) immobilie(anbieter.ele('immobilie'), listing, input.contact!, date);
  return root.end({ prettyPrint: true });
}

/**
 * `modus` only informs (the schema's note): a full transfer is `NEW`, a partial one `CHANGE`, or
 * `DELETE` when it does nothing but delete.
 */
function modus(umfang: 'VOLL' | 'TEIL', listings: readonly OpenImmoListing[]): 'NEW' | 'CHANGE' | 'DELETE' {
  if (umfang === 'VOLL') return 'NEW';
  return listings.length > 0 && listings.every((l) => l.action === 'DELETE') ? 'DELETE' : 'CHANGE';
}

function immobilie(el: XMLBuilder, listing: OpenImmoListing, contact: AgencyContact, standVom: string): void {
  const p = listing.snapshot.property;
  if (listing.action === 'DELETE') return deletion(el, listing, contact, standVom);
  objektkategorie(el.ele('objektkategorie'), p);
  geo(el.ele('geo'), p);
  kontaktperson(el.ele('kontaktperson'), contact);
  preise(el.ele('preise'), p);
  flaechen(el.ele('flaechen'), p);
  zustandAngaben(el, p);
  const freitexte = el.ele('freitexte');
  text(freitexte, 'objekttitel', p.title);
  text(freitexte, 'objektbeschreibung', p.description);
  anhaenge(el, listing);
  // Missing means "yes" to a portal: say no whenever the street or number is withheld.
  const verwaltung = el.ele('verwaltung_objekt');
  verwaltung.ele('objektadresse_freigeben').txt(String(p.address.location_precision === 'exact'));
  text(verwaltung, 'verfuegbar_ab', p.available_from);
  verwaltungTechn(el, listing, standVom);
}

/** What a DELETE item must still hold to be valid: the category, postal code and city, the contact, the ids. */
function deletion(el: XMLBuilder, listing: OpenImmoListing, contact: AgencyContact, standVom: string): void {
  const p = listing.snapshot.property;
  objektkategorie(el.ele('objektkategorie'), p);
  const geoEl = el.ele('geo');
  text(geoEl, 'plz', p.address.postal_code);
  text(geoEl, 'ort', p.address.city);
  kontaktperson(el.ele('kontaktperson'), contact);
  verwaltungTechn(el, listing, standVom);
}

function verwaltungTechn(el: XMLBuilder, listing: OpenImmoListing, standVom: string): void {
  const objectId = listing.objectId ?? listing.listingId;
  const techn = el.ele('verwaltung_techn');
  text(techn, 'objektnr_extern', objectId);
  techn.ele('aktion').att('aktionart', listing.action ?? 'CHANGE');
  text(techn, 'openimmo_obid', objectId);
  text(techn, 'stand_vom', standVom);
}

/** Sale when a purchase price is set, else rent when a cold rent is set (neither: both false). */
export function marketing(p: Property): 'KAUF' | 'MIETE_PACHT' | null {
  if (p.purchase_price_eur !== null) return 'KAUF';
  if (p.cold_rent_eur !== null) return 'MIETE_PACHT';
  return null;
}

function objektkategorie(el: XMLBuilder, p: Property): void {
  // Land and parking are offered as residential (the common case for the properties we hold).
  const commercial = p.type === 'commercial';
  el.ele('nutzungsart').att({ WOHNEN: String(!commercial), GEWERBE: String(commercial) });
  const kind = marketing(p);
  el.ele('vermarktungsart').att({ KAUF: String(kind === 'KAUF'), MIETE_PACHT: String(kind === 'MIETE_PACHT') });
  el.ele('objektart').ele(OBJEKTART[p.type]);
}

function geo(el: XMLBuilder, p: Property): void {
  const address = publicAddress(p.address);
  text(el, 'plz', address.postal_code);
  text(el, 'ort', address.city);
  text(el, 'strasse', address.street);
  text(el, 'hausnummer', address.house_number);
  const alpha3 = ISO_ALPHA3[address.country];
  if (alpha3) el.ele('land').att('iso_land', alpha3);
  text(el, 'etage', p.floor);
}

/** The schema wants an e-mail or a phone first (`email_zentrale` / `tel_zentrale`), then the name. */
function kontaktperson(el: XMLBuilder, contact: AgencyContact): void {
  text(el, 'email_zentrale', contact.email);
  text(el, 'tel_zentrale', contact.phone);
  text(el, 'name', contact.name);
  text(el, 'firma', contact.company);
}

function preise(el: XMLBuilder, p: Property): void {
  const kind = marketing(p);
  if (kind === 'KAUF') text(el, 'kaufpreis', p.purchase_price_eur);
  if (kind === 'MIETE_PACHT') {
    text(el, 'kaltmiete', p.cold_rent_eur);
    text(el, 'nebenkosten', p.service_charges_eur);
  }
  const buyer = p.commission?.buyer_percent ?? null;
  if (buyer !== null) el.ele('aussen_courtage').att('mit_mwst', 'true').txt(courtage(buyer));
}

/** `3.57` → `3,57 %` (German decimal comma; the value is free text in the schema). */
export function courtage(percent: number): string {
  return `${decimal(percent).replace('.', ',')} %`;
}

function flaechen(el: XMLBuilder, p: Property): void {
  text(el, 'wohnflaeche', p.living_area_sqm);
  text(el, 'grundstuecksflaeche', p.lot_size_sqm);
  text(el, 'anzahl_zimmer', p.rooms);
}

function zustandAngaben(parent: XMLBuilder, p: Property): void {
  const c = p.energy_certificate;
  if (p.year_built === null && !c) return;
  const el = parent.ele('zustand_angaben');
  text(el, 'baujahr', p.year_built);
  if (!c) return;
  const pass = el.ele('energiepass');
  if (c.exemption) {
    // No certificate is required (GEG exemption): OpenImmo says so with jahrgang "nicht_noetig".
    text(pass, 'jahrgang', 'nicht_noetig');
    return;
  }
  // Schema order: epart, gueltig_bis, energieverbrauchkennwert, mitwarmwasser, endenergiebedarf,
  // primaerenergietraeger, stromwert, waermewert, wertklasse, baujahr, ausstelldatum, jahrgang, gebaeudeart.
  text(pass, 'epart', c.type === 'demand' ? 'BEDARF' : c.type === 'consumption' ? 'VERBRAUCH' : null);
  text(pass, 'gueltig_bis', c.valid_until);
  if (c.type === 'consumption') text(pass, 'energieverbrauchkennwert', c.final_energy_demand_kwh);
  if (c.type === 'demand') text(pass, 'endenergiebedarf', c.final_energy_demand_kwh);
  text(pass, 'primaerenergietraeger', c.energy_source);
  text(pass, 'wertklasse', c.efficiency_class);
  // energiepass/baujahr is the building's year of construction as an ad must state it (EnEV 2014,
  // now GEG §87), not the heating system's year: `system_year` has no element in energiepass.
  text(pass, 'baujahr', p.year_built);
  const building = p.type === 'apartment' || p.type === 'house' ? 'wohn' : p.type === 'commercial' ? 'nichtwohn' : null;
  text(pass, 'gebaeudeart', building);
}

/**
 * The group of each published photo and floor plan (its rendition), in position order: the first
 * photo is the cover (`TITELBILD`). A document is never published, whatever an older snapshot says.
 */
export function mediaGroups(media: readonly ListingMediaSnapshot[]): { medium: ListingMediaSnapshot; gruppe: Group }[] {
  const ordered = media
    .filter(isPublished)
    .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let coverGiven = false;
  return ordered.map((medium) => {
    if (medium.kind === 'floor_plan') return { medium, gruppe: 'GRUNDRISS' };
    const gruppe = coverGiven ? 'BILD' : 'TITELBILD';
    coverGiven = true;
    return { medium, gruppe };
  });
}

function anhaenge(parent: XMLBuilder, listing: OpenImmoListing): void {
  const groups = mediaGroups(listing.snapshot.media);
  if (groups.length === 0) return;
  const el = parent.ele('anhaenge');
  for (const { medium, gruppe } of groups) {
    const inZip = listing.mediaPath !== undefined;
    const anhang = el.ele('anhang').att({ location: inZip ? 'INTERN' : 'EXTERN', gruppe });
    text(anhang, 'anhangtitel', medium.title);
    text(anhang, 'format', medium.content_type);
    anhang
      .ele('daten')
      .ele('pfad')
      .txt(inZip ? listing.mediaPath(medium) : listing.mediaUrl(medium));
  }
}

/** A child element with text, left out when the value is null, undefined or empty. */
function text(el: XMLBuilder, name: string, value: string | number | null | undefined): void {
  if (value === null || value === undefined || value === '') return;
  el.ele(name).txt(typeof value === 'number' ? decimal(value) : value);
}

/** A number as xsd:decimal (`72.5`, never `7.25e1`). */
function decimal(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
}

/** The calendar date of an RFC 3339 timestamp, as written (its own offset). */
function dateOf(timestamp: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T/.exec(timestamp);
  if (!match) throw new TypeError(`generatedAt must be an RFC 3339 timestamp, got ${JSON.stringify(timestamp)}`);
  return match[1];
}
