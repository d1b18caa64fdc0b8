import { advisoryXactLock, type Db } from '@platform/db';
import { ApiError } from '@platform/http';
import type { TimeRange } from '@platform/scheduling';

/**
 * A host's time is taken by open slots and by open single appointments, two tables that no one
 * constraint spans: a booking of either kind checks the other under a lock of the host (taken
 * after the participant locks, always last, so the order stays fixed).
 */
export async function assertHostFree(
  tx: Db,
  accountId: string,
  host: string | null,
  range: TimeRange,
  against: 'slots' | 'single appointments',
): Promise<void> {
  if (host === null) return;
  await advisoryXactLock(tx, `host-time:${accountId}|${host}`);
  const rows =
    against === 'slots'
      ? await tx.$queryRawUnsafe<{ id: string }[]>(
          `SELECT id FROM viewing_slots WHERE account_id = $1 AND host = $2 AND status = 'open' AND during && tstzrange($3, $4, '[)') ORDER BY starts_at LIMIT 1`,
          accountId,
          host,
          range.start,
          range.end,
        )
      : await tx.$queryRawUnsafe<{ id: string }[]>(
          `SELECT id FROM appointments WHERE account_id = $1 AND host = $2 AND slot_id IS NULL AND status IN ('proposed', 'confirmed')
             AND during && tstzrange($3, $4, '[)') ORDER BY starts_at LIMIT 1`,
          accountId,
          host,
          range.start,
          range.end,
        );
  if (rows.length > 0) {
    throw new ApiError('conflict', {
      message: `The host has ${against === 'slots' ? 'an open viewing slot' : 'an appointment'} at that time.`,
      details: [{ field: 'host', reason: 'overlaps', conflicting_id: rows[0].id }],
    });
  }
}
