import type { Db } from '@platform/db';
import type { TimeRange } from '@platform/scheduling';

/** The host's first open viewing slot overlapping the range, or null. */
export async function openSlotOfHostDuring(
  tx: Db,
  accountId: string,
  host: string,
  range: TimeRange,
): Promise<string | null> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM viewing_slots WHERE account_id = $1 AND host = $2 AND status = 'open' AND during && tstzrange($3, $4, '[)') ORDER BY starts_at LIMIT 1`,
    accountId,
    host,
    range.start,
    range.end,
  );
  return rows[0]?.id ?? null;
}
