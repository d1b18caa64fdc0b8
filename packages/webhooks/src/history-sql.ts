import type { PrismaClient } from '@platform/db';

/** Delivered or failed history is kept this long after its event was relayed. */
export const DELIVERY_HISTORY_DAYS = 30;

/**
 * Removes events relayed more than `days` ago whose deliveries are all finished (succeeded or
 * failed), with their deliveries and attempt logs (ON DELETE CASCADE), in batches. Pending and
 * held deliveries (paused endpoints) are never removed, nor are events not yet relayed.
 * Returns the number of events removed.
 */
export async function pruneDeliveryHistory(
  db: PrismaClient,
  now: Date,
  { days = DELIVERY_HISTORY_DAYS, batchSize = 10_000 } = {},
): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000);
  let total = 0;
  for (;;) {
    // Two runs at once (a manual run during the nightly one, a stalled job taken over) may pick the
    // same batch: the one that waited on the other's row locks finds those events gone and removes
    // (and counts) none of them. So a run stops when its batch came out short, not when it removed
    // fewer than a batch: a run that lost its batch to the other goes on, and reaches what only its
    // own cutoff covers (the other run's cutoff may be earlier).
    const [{ selected, removed }] = await db.$queryRawUnsafe<{ selected: number; removed: number }[]>(
      `WITH batch AS (
         SELECT e.id FROM outbox_events e
         WHERE e.relayed_at < $1
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status IN ('pending', 'held'))
         LIMIT $2
       ), removed AS (
         DELETE FROM outbox_events WHERE id IN (SELECT id FROM batch) RETURNING id
       )
       SELECT (SELECT count(*) FROM batch)::int AS selected, (SELECT count(*) FROM removed)::int AS removed`,
      before,
      batchSize,
    );
    total += removed;
    if (selected < batchSize) return total;
  }
}
