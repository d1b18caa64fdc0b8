import type { Prisma } from '@platform/db';
import type { Prospect, ProspectInput } from './schemas.js';

export type ProspectRow = Prisma.ProspectGetPayload<object>;
type Row = ProspectRow;
export type Columns = Pick<
  Prisma.ProspectUncheckedCreateInput,
  | 'vorname'
  | 'nachname'
  | 'email'
  | 'telefon'
  | 'einwilligung_zweck'
  | 'einwilligung_erteilt_am'
  | 'has_profile'
  | 'profil_aktiv'
  | 'profil_vermarktung'
  | 'profil_typ'
  | 'profil_orte'
  | 'profil_orte_norm'
  | 'profil_zimmer_min'
  | 'profil_kaufpreis_max'
  | 'profil_kaltmiete_max'
  | 'profil_wohnflaeche_min'
>;

/** How a wanted location of a search profile is compared: trimmed and lower-cased. Stored so, too (`profil_orte_norm`). */
export function normaliseLocation(wanted: string): string {
  return wanted.trim().toLowerCase();
}

export function toColumns(input: ProspectInput): Columns {
  const profil = input.suchprofil;
  return {
    vorname: input.vorname ?? null,
    nachname: input.nachname,
    email: input.email,
    telefon: input.telefon ?? null,
    einwilligung_zweck: input.einwilligung.zweck,
    einwilligung_erteilt_am: new Date(input.einwilligung.erteilt_am),
    has_profile: profil !== undefined,
    profil_aktiv: profil ? (profil.aktiv ?? true) : false,
    profil_vermarktung: profil ? (profil.vermarktung ?? 'kauf') : null,
    profil_typ: profil?.typ ?? [],
    profil_orte: profil?.orte ?? [],
    profil_orte_norm: (profil?.orte ?? []).map(normaliseLocation),
    profil_zimmer_min: profil?.zimmer_min ?? null,
    profil_kaufpreis_max: profil?.kaufpreis_max_eur ?? null,
    profil_kaltmiete_max: profil?.kaltmiete_max_eur ?? null,
    profil_wohnflaeche_min: profil?.wohnflaeche_min_qm ?? null,
  };
}

export function toProspect(row: Row): Prospect {
  return {
    id: row.id,
    vorname: row.vorname,
    nachname: row.nachname,
    email: row.email,
    telefon: row.telefon,
    einwilligung:
      row.einwilligung_zweck && row.einwilligung_erteilt_am
        ? { zweck: row.einwilligung_zweck, erteilt_am: row.einwilligung_erteilt_am.toISOString() }
        : null,
    suchprofil: row.has_profile
      ? {
          vermarktung: row.profil_vermarktung ?? 'kauf',
          typ: row.profil_typ,
          orte: row.profil_orte,
          zimmer_min: row.profil_zimmer_min,
          kaufpreis_max_eur: row.profil_kaufpreis_max,
          kaltmiete_max_eur: row.profil_kaltmiete_max,
          wohnflaeche_min_qm: row.profil_wohnflaeche_min,
          aktiv: row.profil_aktiv,
        }
      : null,
    aufbewahrung_bis: row.retention_until.toISOString().slice(0, 10),
    angelegt_am: row.created_at.toISOString(),
    aktualisiert_am: row.updated_at.toISOString(),
    anonymisiert: row.anonymised_at !== null,
  };
}
