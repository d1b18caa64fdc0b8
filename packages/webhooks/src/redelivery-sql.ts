import { advisoryXactLock, newId, type PrismaClient } from '@platform/db';

/** Which finished deliveries a bulk redelivery sends again. */
export type RedeliverySelection = 'failed' | 'all';

/** Deliveries of one redelivery marked per step; the relay marks the next batch once these have their jobs. */
export const REDELIVERY_BATCH_SIZE = 500;

const statusesOf = (selection: string): string[] => (selection === 'all' ? ['failed', 'succeeded'] : ['failed']);

export interface RedeliveryRow {
  id: string;
  endpoint_id: string;
  since: Date;
  selection: string;
  status: 'running' | 'completed';
  total: number;
  queued: number;
  created_at: Date;
  completed_at: Date | null;
}

/**
 * Records a bulk redelivery of the endpoint's finished deliveries created from `since` up to now,
 * counting them; the relay does the marking (`advanceRedeliveries`). One running redelivery per
 * endpoint: returns the running one instead when there is one.
 */
export async function createRedelivery(
  db: PrismaClient,
  input: { endpointId: string; accountId: string; since: Date; selection: RedeliverySelection; at: Date },
): Promise<{ created: true; row: RedeliveryRow } | { created: false; running: RedeliveryRow }> {
  return db.$transaction(async (tx) => {
    await advisoryXactLock(tx, `webhook-redeliveries:${input.endpointId}`);
    const running = await tx.webhookRedelivery.findFirst({
      where: { endpoint_id: input.endpointId, status: 'running' },
    });
    if (running) return { created: false as const, running };
    const total = await tx.webhookDelivery.count({
      where: {
        endpoint_id: input.endpointId,
        created_at: { gte: input.since, lte: input.at },
        status: { in: statusesOf(input.selection) as ('failed' | 'succeeded')[] },
      },
    });
    const row = await tx.webhookRedelivery.create({
      data: {
        id: newId('rdl', input.at.getTime()),
        endpoint_id: input.endpointId,
        account_id: input.accountId,
        since: input.since,
        until: input.at,
        selection: input.selection,
        total,
        created_at: input.at,
        updated_at: input.at,
      },
    });
    return { created: true as const, row };
  });
}

/** The redelivery of this endpoint, or null. */
export function findRedelivery(db: PrismaClient, endpointId: string, id: string): Promise<RedeliveryRow | null> {
  return db.webhookRedelivery.findFirst({ where: { id, endpoint_id: endpointId } });
}

/** How the deliveries a redelivery marked stand now, by status. */
export async function redeliveryOutcomes(db: PrismaClient, id: string): Promise<Record<string, number>> {
  const groups = await db.webhookDelivery.groupBy({
    by: ['status'],
    where: { redelivery_id: id },
    _count: { _all: true },
  });
  return Object.fromEntries(groups.map((g) => [g.status, g._count._all]));
}

/**
 * One step of one running redelivery: the next batch of its deliveries (oldest first, after its
 * cursor) becomes pending and marked for a new job (`requeue_at`, the relay's
 * `enqueueRequestedDeliveries` gives them their jobs), the cursor and the count move on in the
 * same transaction, so a restart goes on after the last committed batch and never marks one twice.
 * Only finished deliveries (failed, or succeeded with `all`) are marked: a pending one is already
 * on its way, so an event is never sent twice at once. A redelivery of a paused endpoint waits for
 * its resumption; one whose previous batch still waits for its jobs is left for a later call, so the
 * receiver and the queue get the deliveries at the pace the relay hands them out.
 * `FOR UPDATE SKIP LOCKED`: every worker's relay may call it. Returns the number of deliveries marked
 * (0 when nothing ran or the redelivery completed without more).
 */
export async function advanceRedeliveries(
  db: PrismaClient,
  now: () => Date,
  batchSize = REDELIVERY_BATCH_SIZE,
): Promise<number> {
  const any = await db.$queryRaw<{ one: number }[]>`
    SELECT 1 AS one FROM webhook_redeliveries WHERE status = 'running' LIMIT 1`;
  if (any.length === 0) return 0;
  return db.$transaction(
    async (tx) => {
      const [job] = await tx.$queryRaw<
        {
          id: string;
          endpoint_id: string;
          since: Date;
          until: Date;
          selection: string;
          cursor_created_at: Date | null;
          cursor_id: string | null;
        }[]
      >`
        SELECT r.id, r.endpoint_id, r.since, r.until, r.selection, r.cursor_created_at, r.cursor_id
        FROM webhook_redeliveries r JOIN webhook_endpoints ep ON ep.id = r.endpoint_id
        WHERE r.status = 'running' AND ep.status = 'active' AND ep.deleted_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.redelivery_id = r.id AND d.requeue_at IS NOT NULL)
        ORDER BY r.updated_at LIMIT 1
        FOR UPDATE OF r SKIP LOCKED`;
      if (!job) return 0;
      const at = now();
      const [step] = await tx.$queryRaw<
        { selected: number; marked: number; last_created_at: Date | null; last_id: string | null }[]
      >`
        WITH batch AS (
          SELECT id, created_at FROM webhook_deliveries
          WHERE endpoint_id = ${job.endpoint_id} AND created_at >= ${job.since} AND created_at <= ${job.until}
            AND status::text = ANY(${statusesOf(job.selection)}::text[])
            AND (${job.cursor_created_at}::timestamptz IS NULL OR (created_at, id) > (${job.cursor_created_at}::timestamptz, ${job.cursor_id}::text))
          ORDER BY created_at, id LIMIT ${batchSize}
          FOR UPDATE
        ), marked AS (
          UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = ${at}, failure_reason = NULL,
            requeue_at = ${at}, redelivery_id = ${job.id}, updated_at = ${at}
          FROM batch b WHERE d.id = b.id RETURNING 1
        ), last AS (SELECT created_at, id FROM batch ORDER BY created_at DESC, id DESC LIMIT 1)
        SELECT (SELECT count(*) FROM batch)::int AS selected, (SELECT count(*) FROM marked)::int AS marked,
          (SELECT created_at FROM last) AS last_created_at, (SELECT id FROM last) AS last_id`;
      const finished = step.selected < batchSize;
      const updated = await tx.webhookRedelivery.update({
        where: { id: job.id },
        data: {
          queued: { increment: step.marked },
          cursor_created_at: step.last_created_at ?? job.cursor_created_at,
          cursor_id: step.last_id ?? job.cursor_id,
          updated_at: at,
          ...(finished ? { status: 'completed', completed_at: at } : {}),
        },
      });
      // Done: the total is what was sent again (deliveries retried by hand or finished meanwhile change the first count).
      if (finished) await tx.webhookRedelivery.update({ where: { id: job.id }, data: { total: updated.queued } });
      return step.marked;
    },
    { timeout: 30_000 },
  );
}
