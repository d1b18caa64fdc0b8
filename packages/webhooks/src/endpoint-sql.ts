import { advisoryXactLock, type Db, type PrismaClient, type Service } from '@platform/db';

/**
 * Serialises the registrations of one account in one service until the transaction ends, so
 * that two concurrent requests cannot both pass the endpoint cap.
 */
export function lockEndpointRegistrations(
  tx: Pick<Db, '$executeRaw'>,
  accountId: string,
  service: Service,
): Promise<void> {
  return advisoryXactLock(tx, `webhook-endpoints:${accountId}:${service}`);
}

/**
 * Takes one test-event slot of an endpoint: at most `limit` test events within `windowMs`, counted
 * in the endpoint's row (so the limit holds across instances; the UPDATE locks the row until the
 * transaction ends). Without a free slot: how many seconds until the oldest one expires.
 */
export async function takeTestEventSlot(
  tx: Pick<Db, '$queryRaw'>,
  endpointId: string,
  now: Date,
  { limit, windowMs }: { limit: number; windowMs: number },
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  const since = new Date(now.getTime() - windowMs);
  const [row] = await tx.$queryRaw<{ recent: (Date | string)[]; taken: boolean }[]>`
    WITH current AS (
      SELECT id, ARRAY(SELECT t FROM unnest(test_sent_at) AS t WHERE t > ${since}::timestamptz ORDER BY t) AS recent
      FROM webhook_endpoints WHERE id = ${endpointId} FOR UPDATE
    ), taken AS (
      UPDATE webhook_endpoints ep SET test_sent_at = c.recent || ${now}::timestamptz
      FROM current c WHERE ep.id = c.id AND cardinality(c.recent) < ${limit}::int
      RETURNING ep.id
    )
    SELECT c.recent, EXISTS (SELECT 1 FROM taken) AS taken FROM current c`;
  if (!row || row.taken) return { ok: true };
  const oldest = row.recent.length > 0 ? new Date(row.recent[0]).getTime() : now.getTime();
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now.getTime()) / 1000)) };
}

/**
 * Removes deleted endpoints with their deliveries and attempt logs, a batch of deliveries per
 * statement, at most `maxBatches` statements per call (the relay's sweep calls it again and
 * again). The endpoint row goes last; its cascade takes what a relay added meanwhile. Returns the
 * number of deliveries removed. Every worker's relay runs it, so two may purge the same endpoint at
 * once: each delivery is removed and counted by one of them.
 */
export async function purgeDeletedEndpoints(
  db: PrismaClient,
  { batchSize = 1000, maxBatches = 20 } = {},
): Promise<number> {
  let removed = 0;
  let batches = 0;
  const endpoints = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM webhook_endpoints WHERE deleted_at IS NOT NULL ORDER BY deleted_at LIMIT 10`;
  for (const { id } of endpoints) {
    for (;;) {
      if (batches++ >= maxBatches) return removed;
      // A purge that waited on another's batch finds those deliveries gone (not counted): it stops when
      // its batch came out short, not when it removed fewer than a batch, so that it does not leave
      // the rest to the endpoint's cascade below (one unbatched statement, across the other's batches).
      const [{ selected, count }] = await db.$queryRaw<{ selected: number; count: number }[]>`
        WITH batch AS (
          SELECT id FROM webhook_deliveries WHERE endpoint_id = ${id} LIMIT ${batchSize}
        ), gone AS (
          DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM batch) RETURNING 1
        )
        SELECT (SELECT count(*) FROM batch)::int AS selected, (SELECT count(*) FROM gone)::int AS count`;
      removed += count;
      if (selected < batchSize) break;
    }
    await db.$executeRaw`DELETE FROM webhook_endpoints WHERE id = ${id} AND deleted_at IS NOT NULL`;
  }
  return removed;
}

/** Deliveries marked for a new job (resume), oldest mark first, locked until the transaction ends. */
export function claimRequeueRequests(
  tx: Pick<Db, '$queryRaw'>,
  batchSize: number,
): Promise<{ id: string; status: string }[]> {
  return tx.$queryRaw<{ id: string; status: string }[]>`
    SELECT id, status::text AS status FROM webhook_deliveries
    WHERE requeue_at IS NOT NULL ORDER BY requeue_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;
}
