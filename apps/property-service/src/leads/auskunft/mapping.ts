import type { AuskunftRecordRow } from './repository.js';
import type { ProspectAnnouncementRow, ProspectDailyCountRow } from '../outreach/index.js';
import type { Auskunft, AuskunftRecordView, TERMIN_SEITEN, TERMIN_STATUS } from './schemas.js';

const iso = (value: Date | null) => value?.toISOString() ?? null;
const day = (value: Date) => value.toISOString().slice(0, 10);

/** The nightly anonymisation takes prospects whose `retention_until` has passed: the day after it. */
export function plannedErasureDay(retentionUntil: Date): string {
  const next = new Date(retentionUntil);
  next.setUTCDate(next.getUTCDate() + 1);
  return day(next);
}

const STATUS: Record<string, (typeof TERMIN_STATUS)[number]> = {
  proposed: 'vorgeschlagen',
  confirmed: 'bestaetigt',
  completed: 'stattgefunden',
  cancelled: 'abgesagt',
};

const SIDE: Record<string, (typeof TERMIN_SEITEN)[number]> = { agent: 'makler', prospect: 'interessent' };
const side = (value: string | null) => (value === null ? null : SIDE[value]!);
/** History times as PostgreSQL's JSON wrote them, in RFC 3339 with milliseconds like every other time. */
const rfc3339 = (value: string) => new Date(value).toISOString();

interface AppointmentFields {
  id: string;
  property_id: string;
  inquiry_id: string;
  status: string;
  starts_at: Date;
  ends_at: Date;
  sequence: number;
  history: unknown;
  slot_id: string | null;
  confirmed_by: string | null;
  confirmed_at: Date | null;
  cancelled_by: string | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  completed_at: Date | null;
  created_at: Date;
}

export function toTermin(row: AppointmentFields) {
  return {
    id: row.id,
    immobilie_id: row.property_id,
    anfrage_id: row.inquiry_id,
    status: STATUS[row.status]!,
    beginn: row.starts_at.toISOString(),
    ende: row.ends_at.toISOString(),
    sequenz: row.sequence,
    fruehere_zeiten: (row.history as { starts_at: string; ends_at: string; until: string }[]).map((h) => ({
      beginn: rfc3339(h.starts_at),
      ende: rfc3339(h.ends_at),
      gueltig_bis: rfc3339(h.until),
    })),
    zeitfenster_id: row.slot_id,
    bestaetigt_von: side(row.confirmed_by),
    bestaetigt_am: iso(row.confirmed_at),
    abgesagt_von: side(row.cancelled_by),
    abgesagt_am: iso(row.cancelled_at),
    absagegrund: row.cancel_reason,
    stattgefunden_am: iso(row.completed_at),
    angelegt_am: row.created_at.toISOString(),
  };
}

export function toTreffer(row: ProspectAnnouncementRow): Auskunft['treffer'][number] {
  return {
    immobilie_id: row.property_id,
    punkte: row.score,
    angebot: row.change_key,
    anlass: row.reason as Auskunft['treffer'][number]['anlass'],
    status: row.announced ? 'angekuendigt' : 'verworfen',
    zeitpunkt: row.created_at.toISOString(),
  };
}

export const toTagesZaehler = (row: ProspectDailyCountRow) => ({ tag: row.day, angekuendigt: row.announced });

export function toAuskunftRecordView(row: AuskunftRecordRow): AuskunftRecordView {
  return {
    id: row.id,
    interessent_id: row.prospect_id,
    format: row.format as AuskunftRecordView['format'],
    zeitpunkt: row.created_at.toISOString(),
    veranlasst_durch: { anwendung_id: row.application_id, key_id: row.key_id },
  };
}
