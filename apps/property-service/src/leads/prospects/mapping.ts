import type { Marketing, Prisma } from '@platform/db';
import type { Prospect, ProspectInput } from './schemas.js';

export type ProspectRow = Prisma.ProspectGetPayload<object>;
type Row = ProspectRow;
export type Columns = Pick<
  Prisma.ProspectUncheckedCreateInput,
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'phone'
  | 'consent_purpose'
  | 'consent_given_at'
  | 'has_profile'
  | 'profile_active'
  | 'profile_marketing'
  | 'profile_types'
  | 'profile_locations'
  | 'profile_locations_norm'
  | 'profile_rooms_min'
  | 'profile_purchase_price_max'
  | 'profile_cold_rent_max'
  | 'profile_living_area_min'
>;

/** The search profile's way of offering: German on the wire, English in the database. */
type Vermarktung = 'kauf' | 'miete';
const MARKETING: Record<Vermarktung, Marketing> = { kauf: 'sale', miete: 'rent' };
const VERMARKTUNG: Record<Marketing, Vermarktung> = { sale: 'kauf', rent: 'miete' };

/** How a wanted location of a search profile is compared: trimmed and lower-cased. Stored so, too (`profile_locations_norm`). */
export function normaliseLocation(wanted: string): string {
  return wanted.trim().toLowerCase();
}

export function toColumns(input: ProspectInput): Columns {
  const profil = input.suchprofil;
  return {
    first_name: input.vorname ?? null,
    last_name: input.nachname,
    email: input.email,
    phone: input.telefon ?? null,
    consent_purpose: input.einwilligung.zweck,
    consent_given_at: new Date(input.einwilligung.erteilt_am),
    has_profile: profil !== undefined,
    profile_active: profil ? (profil.aktiv ?? true) : false,
    profile_marketing: profil ? MARKETING[profil.vermarktung ?? 'kauf'] : null,
    profile_types: profil?.typ ?? [],
    profile_locations: profil?.orte ?? [],
    profile_locations_norm: (profil?.orte ?? []).map(normaliseLocation),
    profile_rooms_min: profil?.zimmer_min ?? null,
    profile_purchase_price_max: profil?.kaufpreis_max_eur ?? null,
    profile_cold_rent_max: profil?.kaltmiete_max_eur ?? null,
    profile_living_area_min: profil?.wohnflaeche_min_qm ?? null,
  };
}

export function toProspect(row: Row): Prospect {
  return {
    id: row.id,
    vorname: row.first_name,
    nachname: row.last_name,
    email: row.email,
    telefon: row.phone,
    einwilligung: row.marketing_consent_valid ? declaredConsent(row) : null,
    suchprofil: row.has_profile
      ? {
          vermarktung: VERMARKTUNG[row.profile_marketing ?? 'sale'],
          typ: row.profile_types,
          orte: row.profile_locations,
          zimmer_min: row.profile_rooms_min,
          kaufpreis_max_eur: row.profile_purchase_price_max,
          kaltmiete_max_eur: row.profile_cold_rent_max,
          wohnflaeche_min_qm: row.profile_living_area_min,
          aktiv: row.profile_active,
        }
      : null,
    aufbewahrung_bis: row.retention_until.toISOString().slice(0, 10),
    angelegt_am: row.created_at.toISOString(),
    aktualisiert_am: row.updated_at.toISOString(),
    anonymisiert: row.anonymised_at !== null,
    eingeschraenkt_seit: row.restricted_at?.toISOString() ?? null,
    widerspruch_seit: row.objected_at?.toISOString() ?? null,
  };
}

/** The latest marketing consent in the old shape (the mirror columns), valid or not. */
function declaredConsent(row: Row) {
  return row.consent_purpose && row.consent_given_at
    ? { zweck: row.consent_purpose, erteilt_am: row.consent_given_at.toISOString() }
    : null;
}

/**
 * The document a merge patch starts from: `einwilligung` is the latest marketing consent even
 * when it is withdrawn or awaits its confirmation, so a patch of other fields never needs one.
 */
export function toPatchView(row: Row): Prospect {
  return { ...toProspect(row), einwilligung: declaredConsent(row) };
}
