import { sql, type Db, type Sql } from '@platform/db';
import type { TimeRange } from '@platform/scheduling';

/** The host's first open single appointment (no slot) overlapping the range, or null. */
export async function singleAppointmentOfHostDuring(
  tx: Db,
  accountId: string,
  host: string,
  range: TimeRange,
): Promise<string | null> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM appointments WHERE account_id = $1 AND host = $2 AND slot_id IS NULL AND status IN ('proposed', 'confirmed')
       AND during && tstzrange($3, $4, '[)') ORDER BY starts_at LIMIT 1`,
    accountId,
    host,
    range.start,
    range.end,
  );
  return rows[0]?.id ?? null;
}

/** Rows `(prospect_id)`: prospects invited to or booked for the property (any appointment not cancelled, or one they declined). */
export const prospectsSeenForProperty = (propertyId: string): Sql =>
  sql`SELECT prospect_id FROM appointments WHERE property_id = ${propertyId} AND (status <> 'cancelled' OR cancel_reason = 'prospect_declined')`;

/** Rows `(prospect_id)`: prospects with an open appointment overlapping [start, end). */
export const prospectsBusyDuring = (start: Date, end: Date): Sql =>
  sql`SELECT prospect_id FROM appointments WHERE status IN ('proposed', 'confirmed') AND during && tstzrange(${start}, ${end}, '[)')`;
