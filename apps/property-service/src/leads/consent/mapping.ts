import type { ConsentPurpose, ConsentSource, Prisma } from '@platform/db';
import type { ConsentRecord } from './schemas.js';

export type ConsentRow = Prisma.ProspectConsentGetPayload<object>;
type Zweck = ConsentRecord['zweck'];
type Quelle = ConsentRecord['quelle'];

/** German on the wire, English in the database. */
export const PURPOSE: Record<Zweck, ConsentPurpose> = { marketing: 'marketing', kontaktaufnahme: 'contact' };
const ZWECK: Record<ConsentPurpose, Zweck> = { marketing: 'marketing', contact: 'kontaktaufnahme' };
export const SOURCE: Record<Quelle, ConsentSource> = {
  website_formular: 'website_form',
  portal: 'portal',
  telefon: 'phone',
  persoenlich: 'in_person',
  sonstiges: 'other',
};
const QUELLE = Object.fromEntries(Object.entries(SOURCE).map(([k, v]) => [v, k])) as Record<ConsentSource, Quelle>;

export function isValidConsent(row: ConsentRow): boolean {
  return row.withdrawn_at === null && (!row.requires_confirmation || row.confirmed_at !== null);
}

export function toConsentRecord(row: ConsentRow): ConsentRecord {
  return {
    id: row.id,
    interessent_id: row.prospect_id,
    zweck: ZWECK[row.purpose],
    zweck_text: row.wording,
    textversion: row.text_version,
    quelle: QUELLE[row.source],
    double_opt_in: row.requires_confirmation,
    erteilt_am: row.given_at.toISOString(),
    bestaetigt_am: row.confirmed_at?.toISOString() ?? null,
    widerrufen_am: row.withdrawn_at?.toISOString() ?? null,
    gueltig: isValidConsent(row),
    angelegt_am: row.created_at.toISOString(),
  };
}
