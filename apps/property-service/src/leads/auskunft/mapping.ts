import type { AuskunftRecordRow } from './repository.js';
import type { AuskunftRecordView, TERMIN_STATUS } from './schemas.js';

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

interface AppointmentFields {
  id: string;
  property_id: string;
  inquiry_id: string;
  status: string;
  starts_at: Date;
  ends_at: Date;
  confirmed_at: Date | null;
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
    bestaetigt_am: iso(row.confirmed_at),
    abgesagt_am: iso(row.cancelled_at),
    absagegrund: row.cancel_reason,
    stattgefunden_am: iso(row.completed_at),
    angelegt_am: row.created_at.toISOString(),
  };
}

export function toAuskunftRecordView(row: AuskunftRecordRow): AuskunftRecordView {
  return {
    id: row.id,
    interessent_id: row.prospect_id,
    format: row.format as AuskunftRecordView['format'],
    zeitpunkt: row.created_at.toISOString(),
    veranlasst_durch: { anwendung_id: row.application_id, key_id: row.key_id },
  };
}
