import { describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { openImmoDocument, type OpenImmoListing } from '../src/publication/openimmo.js';
import { openImmoSchemaErrors } from './openimmo-schema.js';
import type { ListingMediaSnapshot, ListingPropertySnapshot, ListingSnapshot } from '../src/listings/snapshot.js';

const GENERATED_AT = '2025-06-15T08:30:00Z';

const medium = (
  id: string,
  kind: ListingMediaSnapshot['kind'],
  position: number,
  over: Partial<ListingMediaSnapshot> = {},
): ListingMediaSnapshot => ({
  id,
  kind,
  title: `Medium ${id}`,
  position,
  content_type: kind === 'document' ? 'application/pdf' : 'image/jpeg',
  size: 1000 + position,
  sha256: id.padEnd(64, '0'),
  width: kind === 'document' ? null : 1600,
  height: kind === 'document' ? null : 1200,
  thumbnail: null,
  published: kind !== 'document',
  ...over,
});

const apartmentForSale: ListingPropertySnapshot = {
  id: 'prop_apartment',
  type: 'apartment',
  title: 'Helle Wohnung am Kanal',
  description: 'Drei Zimmer, Balkon, Aufzug.',
  address: {
    street: 'Hauptstraße 12a',
    house_number: '12a',
    postal_code: '10115',
    city: 'Berlin',
    country: 'DE',
    location_precision: 'exact',
  },
  living_area_sqm: 72.5,
  lot_size_sqm: null,
  rooms: 3,
  year_built: 1998,
  floor: 2,
  purchase_price_eur: 349_000,
  cold_rent_eur: null,
  service_charges_eur: 280,
  available_from: '2025-09-01',
  energy_certificate: {
    type: 'demand',
    final_energy_demand_kwh: 92.4,
    energy_source: 'Fernwärme',
    system_year: 2010,
    efficiency_class: 'C',
    valid_until: '2030-01-31',
    exemption: null,
  },
  commission: {
    buyer_percent: 3.57,
    seller_percent: 3.57,
    note: 'Ansprechpartnerin Frau Muster, muster@example.com',
    engaged_by: null,
    buyer_is_consumer: true,
    tenant_months: null,
    landlord_months: null,
  },
};

const houseForRent: ListingPropertySnapshot = {
  ...apartmentForSale,
  id: 'prop_house',
  type: 'house',
  title: 'Reihenhaus mit Garten',
  description: null,
  address: {
    street: 'Lindenweg 3',
    house_number: '3',
    postal_code: '80331',
    city: 'München',
    country: 'DE',
    location_precision: 'street',
  },
  living_area_sqm: 120,
  lot_size_sqm: 250,
  rooms: 4.5,
  year_built: 1965,
  floor: null,
  purchase_price_eur: null,
  cold_rent_eur: 2100,
  service_charges_eur: 350,
  energy_certificate: {
    type: 'consumption',
    final_energy_demand_kwh: 143,
    energy_source: 'Gas',
    system_year: null,
    efficiency_class: 'E',
    valid_until: '2028-05-01',
    exemption: null,
  },
  commission: null,
};

const neighborhoodLand: ListingPropertySnapshot = {
  ...apartmentForSale,
  id: 'prop_land',
  type: 'land',
  title: 'Baugrundstück',
  description: null,
  address: {
    street: 'Feldweg 7',
    house_number: '7',
    postal_code: '01067',
    city: 'Dresden',
    country: 'CH',
    location_precision: 'neighborhood',
  },
  living_area_sqm: null,
  lot_size_sqm: 800,
  rooms: null,
  year_built: null,
  floor: null,
  purchase_price_eur: 120_000,
  service_charges_eur: null,
  energy_certificate: null,
  commission: {
    buyer_percent: 6,
    seller_percent: null,
    note: null,
    engaged_by: null,
    buyer_is_consumer: true,
    tenant_months: null,
    landlord_months: null,
  },
};

const snapshot = (property: ListingPropertySnapshot, media: ListingMediaSnapshot[] = []): ListingSnapshot => ({
  property,
  media,
  taken_at: '2025-06-14T10:00:00Z',
});

const listing = (listingId: string, snap: ListingSnapshot): OpenImmoListing => ({
  listingId,
  snapshot: snap,
  mediaUrl: (m) => `https://files.example.test/listings/${listingId}/media/${m.id}?v=1&w=${m.width ?? 0}`,
});

const CONTACT = {
  name: 'Vermietungsteam Mitte',
  company: 'Muster & Söhne Immobilien GmbH',
  email: 'team-mitte@muster-immobilien.example',
  phone: '+49 30 1234567',
};

const document = (...listings: OpenImmoListing[]) =>
  openImmoDocument({
    anbieterId: 'ANB-42',
    firma: 'Muster & Söhne <Immobilien>',
    contact: CONTACT,
    listings,
    generatedAt: GENERATED_AT,
  });

type Node = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => name === 'immobilie' || name === 'anhang',
});

function parse(xml: string): { root: Node; anbieter: Node; immobilien: Node[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const root = (parser.parse(xml) as Node).openimmo as Node;
  const anbieter = root.anbieter as Node;
  return { root, anbieter, immobilien: anbieter.immobilie as Node[] };
}

const at = (node: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((n, key) => (n === undefined || n === null ? undefined : (n as Node)[key]), node);

describe('OpenImmo export', () => {
  const media = [
    medium('m_plan', 'floor_plan', 1),
    medium('m_cover', 'photo', 0, { title: 'Küche & Bad <neu>' }),
    medium('m_doc', 'document', 3, { title: null }),
    medium('m_photo', 'photo', 2),
  ];
  const apartmentListing = listing('lst_apartment', snapshot(apartmentForSale, media));

  it('writes the transfer header and the provider', () => {
    const { root, anbieter, immobilien } = parse(document(apartmentListing));
    expect(root.uebertragung).toEqual({
      '@_art': 'OFFLINE',
      '@_umfang': 'VOLL',
      '@_modus': 'NEW',
      '@_version': '1.2.7',
      '@_sendersoftware': 'property-service',
      '@_senderversion': '1.0',
      '@_timestamp': GENERATED_AT,
    });
    expect(anbieter.anbieternr).toBe('ANB-42');
    expect(anbieter.firma).toBe('Muster & Söhne <Immobilien>');
    expect(anbieter.openimmo_anid).toBe('ANB-42');
    expect(immobilien).toHaveLength(1);
  });

  it('an apartment for sale: every field written matches the snapshot', () => {
    const [immo] = parse(document(apartmentListing)).immobilien;
    expect(at(immo, 'objektkategorie')).toEqual({
      nutzungsart: { '@_WOHNEN': 'true', '@_GEWERBE': 'false' },
      vermarktungsart: { '@_KAUF': 'true', '@_MIETE_PACHT': 'false' },
      objektart: { wohnung: '' },
    });
    expect(at(immo, 'geo')).toEqual({
      plz: '10115',
      ort: 'Berlin',
      strasse: 'Hauptstraße',
      hausnummer: '12a',
      land: { '@_iso_land': 'DEU' },
      etage: '2',
    });
    expect(at(immo, 'preise')).toEqual({
      kaufpreis: '349000',
      aussen_courtage: { '#text': '3,57 %', '@_mit_mwst': 'true' },
    });
    expect(at(immo, 'flaechen')).toEqual({ wohnflaeche: '72.5', anzahl_zimmer: '3' });
    expect(at(immo, 'zustand_angaben')).toEqual({
      baujahr: '1998',
      energiepass: {
        epart: 'BEDARF',
        gueltig_bis: '2030-01-31',
        endenergiebedarf: '92.4',
        primaerenergietraeger: 'Fernwärme',
        wertklasse: 'C',
        baujahr: '1998',
        gebaeudeart: 'wohn',
      },
    });
    expect(at(immo, 'freitexte')).toEqual({
      objekttitel: 'Helle Wohnung am Kanal',
      objektbeschreibung: 'Drei Zimmer, Balkon, Aufzug.',
    });
    expect(at(immo, 'verwaltung_techn')).toEqual({
      objektnr_extern: 'lst_apartment',
      aktion: { '@_aktionart': 'CHANGE' },
      openimmo_obid: 'lst_apartment',
      stand_vom: '2025-06-15',
    });
  });

  it('published media are attachments in position order, the first photo the cover, each with its URL and MIME type; a document never', () => {
    const [immo] = parse(document(apartmentListing)).immobilien;
    const url = (id: string) =>
      `https://files.example.test/listings/lst_apartment/media/${id}?v=1&w=${id === 'm_doc' ? 0 : 1600}`;
    expect(at(immo, 'anhaenge.anhang')).toEqual([
      {
        '@_location': 'EXTERN',
        '@_gruppe': 'TITELBILD',
        anhangtitel: 'Küche & Bad <neu>',
        format: 'image/jpeg',
        daten: { pfad: url('m_cover') },
      },
      {
        '@_location': 'EXTERN',
        '@_gruppe': 'GRUNDRISS',
        anhangtitel: 'Medium m_plan',
        format: 'image/jpeg',
        daten: { pfad: url('m_plan') },
      },
      {
        '@_location': 'EXTERN',
        '@_gruppe': 'BILD',
        anhangtitel: 'Medium m_photo',
        format: 'image/jpeg',
        daten: { pfad: url('m_photo') },
      },
    ]);
  });

  it('writes the schema sequence order inside immobilie', () => {
    const xml = document(apartmentListing);
    const order = [
      'objektkategorie',
      'geo',
      'kontaktperson',
      'preise',
      'flaechen',
      'zustand_angaben',
      'freitexte',
      'anhaenge',
      'verwaltung_objekt',
      'verwaltung_techn',
    ];
    const positions = order.map((name) => xml.indexOf(`<${name}>`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('a house for rent: rent prices, street without number, consumption certificate', () => {
    const [immo] = parse(document(listing('lst_house', snapshot(houseForRent)))).immobilien;
    expect(at(immo, 'objektkategorie.vermarktungsart')).toEqual({ '@_KAUF': 'false', '@_MIETE_PACHT': 'true' });
    expect(at(immo, 'objektkategorie.objektart')).toEqual({ haus: '' });
    expect(at(immo, 'geo')).toEqual({
      plz: '80331',
      ort: 'München',
      strasse: 'Lindenweg',
      land: { '@_iso_land': 'DEU' },
    });
    expect(at(immo, 'preise')).toEqual({ kaltmiete: '2100', nebenkosten: '350' });
    expect(at(immo, 'flaechen')).toEqual({ wohnflaeche: '120', grundstuecksflaeche: '250', anzahl_zimmer: '4.5' });
    expect(at(immo, 'zustand_angaben')).toEqual({
      baujahr: '1965',
      energiepass: {
        epart: 'VERBRAUCH',
        gueltig_bis: '2028-05-01',
        energieverbrauchkennwert: '143',
        primaerenergietraeger: 'Gas',
        wertklasse: 'E',
        baujahr: '1965',
        gebaeudeart: 'wohn',
      },
    });
    expect(at(immo, 'freitexte')).toEqual({ objekttitel: 'Reihenhaus mit Garten' });
    expect(at(immo, 'anhaenge')).toBeUndefined();
    expect(at(immo, 'verwaltung_techn.openimmo_obid')).toBe('lst_house');
  });

  it('a neighborhood-precision property shows postal code and city only', () => {
    const xml = document(listing('lst_land', snapshot(neighborhoodLand)));
    const [immo] = parse(xml).immobilien;
    expect(at(immo, 'geo')).toEqual({ plz: '01067', ort: 'Dresden', land: { '@_iso_land': 'CHE' } });
    expect(xml).not.toContain('Feldweg');
    expect(xml).not.toContain('<strasse>');
    expect(xml).not.toContain('<hausnummer>');
    expect(at(immo, 'objektkategorie.objektart')).toEqual({ grundstueck: '' });
    expect(at(immo, 'preise')).toEqual({
      kaufpreis: '120000',
      aussen_courtage: { '#text': '6 %', '@_mit_mwst': 'true' },
    });
    expect(at(immo, 'flaechen')).toEqual({ grundstuecksflaeche: '800' });
    expect(at(immo, 'zustand_angaben')).toBeUndefined();
  });

  it('maps commercial and parking, leaves out an unmapped country, marks an exemption', () => {
    const commercial = {
      ...houseForRent,
      type: 'commercial' as const,
      address: { ...houseForRent.address, country: 'ZZ' },
    };
    const exempt = {
      ...apartmentForSale,
      type: 'parking' as const,
      energy_certificate: { ...apartmentForSale.energy_certificate!, exemption: 'small_building' as const },
    };
    const [c, p] = parse(document(listing('l_c', snapshot(commercial)), listing('l_p', snapshot(exempt)))).immobilien;
    expect(at(c, 'objektkategorie.nutzungsart')).toEqual({ '@_WOHNEN': 'false', '@_GEWERBE': 'true' });
    expect(at(c, 'objektkategorie.objektart')).toEqual({ buero_praxen: '' });
    expect(at(c, 'geo.land')).toBeUndefined();
    expect(at(c, 'zustand_angaben.energiepass.gebaeudeart')).toBe('nichtwohn');
    expect(at(p, 'objektkategorie.objektart')).toEqual({ parken: '' });
    expect(at(p, 'zustand_angaben.energiepass')).toEqual({ jahrgang: 'nicht_noetig' });
  });

  it('exports nothing personal: no commission note (its names and e-mail)', () => {
    const xml = document(apartmentListing);
    expect(xml).not.toContain('Muster,');
    expect(xml).not.toContain('@example.com');
  });

  it('escapes markup and keeps umlauts: a hostile title round-trips', () => {
    const title = 'Villa <script>alert("x")</script> & Söhne — Größe ÄÖÜß \'quoted\' ]]>';
    const hostile = { ...apartmentForSale, title, description: 'a < b && c > d' };
    const xml = document(listing('lst_x', snapshot(hostile, [medium('m1', 'photo', 0, { title })])));
    expect(xml).not.toContain('<script>');
    const [immo] = parse(xml).immobilien;
    expect(at(immo, 'freitexte')).toEqual({ objekttitel: title, objektbeschreibung: 'a < b && c > d' });
    expect(at(immo, 'anhaenge.anhang.0.anhangtitel')).toBe(title);
    expect(at(immo, 'anhaenge.anhang.0.daten.pfad')).toBe(
      'https://files.example.test/listings/lst_x/media/m1?v=1&w=1600',
    );
  });

  it('drops characters XML cannot carry instead of failing', () => {
    const xml = document(listing('lst_ctl', snapshot({ ...apartmentForSale, title: 'Zwei\u0001Zimmer\u0008' })));
    expect(at(parse(xml).immobilien[0], 'freitexte.objekttitel')).toBe('ZweiZimmer');
  });

  it('is deterministic: the same input gives the same string', () => {
    const input = [apartmentListing, listing('lst_house', snapshot(houseForRent))];
    expect(document(...input)).toBe(document(...input));
  });

  it('a feed of three listings has three immobilie, in the order given', () => {
    const xml = document(
      apartmentListing,
      listing('lst_house', snapshot(houseForRent)),
      listing('lst_land', snapshot(neighborhoodLand)),
    );
    const { immobilien } = parse(xml);
    expect(immobilien).toHaveLength(3);
    expect(immobilien.map((i) => at(i, 'verwaltung_techn.openimmo_obid'))).toEqual([
      'lst_apartment',
      'lst_house',
      'lst_land',
    ]);
    expect(xml.match(/<immobilie>/g)).toHaveLength(3);
  });

  it('an empty feed is a valid document with the provider and no immobilie', () => {
    const { anbieter } = parse(document());
    expect(anbieter.firma).toBe('Muster & Söhne <Immobilien>');
    expect(anbieter.immobilie).toBeUndefined();
  });

  it('refuses a generatedAt that is not a timestamp', () => {
    expect(() =>
      openImmoDocument({ anbieterId: 'A', firma: 'F', contact: null, listings: [], generatedAt: '15.06.2025' }),
    ).toThrow(TypeError);
  });
});

describe('OpenImmo export against the official OpenImmo 1.2.7b XSD (xmllint)', () => {
  const media = [
    medium('m_plan', 'floor_plan', 1),
    medium('m_cover', 'photo', 0),
    medium('m_photo', 'photo', 2),
    medium('m_doc', 'document', 3),
  ];
  const cases: Record<string, OpenImmoListing[]> = {
    'an apartment for sale with photos and a floor plan': [listing('lst_a', snapshot(apartmentForSale, media))],
    'a house for rent without media': [listing('lst_h', snapshot(houseForRent))],
    'an apartment for rent with a photo': [
      listing(
        'lst_r',
        snapshot({ ...apartmentForSale, purchase_price_eur: null, cold_rent_eur: 950 }, [medium('m1', 'photo', 0)]),
      ),
    ],
    'a house for sale with a floor plan': [
      listing(
        'lst_s',
        snapshot({ ...houseForRent, purchase_price_eur: 640_000, cold_rent_eur: null }, [
          medium('m1', 'photo', 0),
          medium('m2', 'floor_plan', 1),
        ]),
      ),
    ],
    'land at neighborhood precision, commercial and parking': [
      listing('lst_l', snapshot(neighborhoodLand)),
      listing('lst_c', snapshot({ ...houseForRent, type: 'commercial' })),
      listing(
        'lst_p',
        snapshot({
          ...apartmentForSale,
          type: 'parking',
          energy_certificate: { ...apartmentForSale.energy_certificate!, exemption: 'small_building' },
        }),
      ),
    ],
    'a feed of every case': [
      listing('lst_a', snapshot(apartmentForSale, media)),
      listing('lst_h', snapshot(houseForRent)),
      listing('lst_l', snapshot(neighborhoodLand)),
    ],
    'an empty feed': [],
  };

  for (const [name, listings] of Object.entries(cases)) {
    it(`${name}: valid`, () => {
      expect(openImmoSchemaErrors(document(...listings))).toEqual([]);
    });
  }

  it('the check fails when a required element is missing (kontaktperson, verwaltung_techn) or out of order', () => {
    const xml = document(listing('lst_a', snapshot(apartmentForSale, media)));
    const without = (name: string) => xml.replace(new RegExp(`<${name}>[\\s\\S]*?</${name}>`), '');
    expect(openImmoSchemaErrors(without('kontaktperson')).join('\n')).toContain('Expected is ( kontaktperson )');
    expect(openImmoSchemaErrors(without('verwaltung_techn'))).not.toEqual([]);
    expect(
      openImmoSchemaErrors(
        xml.replace(
          '<objektadresse_freigeben>true</objektadresse_freigeben>',
          '<objektadresse_freigeben>ja</objektadresse_freigeben>',
        ),
      ),
    ).not.toEqual([]);
  });

  it("the contact is the agency's business contact, e-mail and phone first", () => {
    const [immo] = parse(document(listing('lst_a', snapshot(apartmentForSale)))).immobilien;
    expect(at(immo, 'kontaktperson')).toEqual({
      email_zentrale: CONTACT.email,
      tel_zentrale: CONTACT.phone,
      name: CONTACT.name,
      firma: CONTACT.company,
    });
    const phoneOnly = openImmoDocument({
      anbieterId: 'A',
      firma: 'F',
      contact: { name: 'Empfang', company: null, email: null, phone: '+49 30 1' },
      listings: [listing('l', snapshot(houseForRent))],
      generatedAt: GENERATED_AT,
    });
    expect(openImmoSchemaErrors(phoneOnly)).toEqual([]);
  });

  it('refuses to write a listing without a contact rather than an invalid document', () => {
    expect(() =>
      openImmoDocument({
        anbieterId: 'A',
        firma: 'F',
        contact: null,
        listings: [listing('l', snapshot(houseForRent))],
        generatedAt: GENERATED_AT,
      }),
    ).toThrow(/kontaktperson/);
  });

  it('says whether the address may be shown: only at exact precision', () => {
    const flag = (property: ListingPropertySnapshot) =>
      at(parse(document(listing('l', snapshot(property)))).immobilien[0], 'verwaltung_objekt.objektadresse_freigeben');
    expect(flag(apartmentForSale)).toBe('true');
    expect(flag(houseForRent)).toBe('false');
    expect(flag(neighborhoodLand)).toBe('false');
    expect(
      at(parse(document(listing('l', snapshot(apartmentForSale)))).immobilien[0], 'verwaltung_objekt.verfuegbar_ab'),
    ).toBe('2025-09-01');
  });
});
