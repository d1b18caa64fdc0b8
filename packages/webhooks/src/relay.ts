import type { PrismaClient } from '@platform/db';
import { inDirectTransaction, newIds, tryAdvisoryXactLock } from '@platform/db';
import type { Queue } from 'bullmq';
import { claimRequeueRequests } from './endpoint-sql.js';
import { enqueueDeliveries, removeJob, type DeliveryJob } from './queue.js';
import { anyRequeueRequested, claimOutboxEvents, insertDeliveries } from './relay-sql.js';

export interface RelayDeps {
  db: PrismaClient;
  queue: Queue<DeliveryJob>;
  now: () => Date;
  batchSize?: number;
}

/** Events relayed in one pass at most. */
export const RELAY_BATCH_SIZE = 200;

/** Deliveries committed whose jobs could not be added (Redis went away meanwhile): the relay adds them again. */
export class EnqueueFailed extends Error {
  constructor(
    readonly deliveryIds: string[],
    cause: unknown,
  ) {
    super(`Could not queue ${deliveryIds.length} committed deliveries`, { cause });
  }
}

/**
 * Moves one batch of outbox events into deliveries (one per subscribed endpoint) and the
 * queue. Rows are claimed with `FOR UPDATE SKIP LOCKED`, so several relays can run. Deliveries
 * and the event's `relayed_at` are written in one transaction of plain SQL (it runs in the API's
 * process under `pnpm start`: Prisma's interactive transaction cost the requests' tail, see
 * bench/RESULTS.md); enqueueing follows, with job id
 * = delivery id, so a crash in between is repaired by `requeueStaleDeliveries` and a repeated
 * relay run adds nothing twice (deliveries are unique per event and endpoint). Only the deliveries
 * this pass inserted are enqueued: one that existed already (an event whose `relayed_at` was
 * cleared by hand) is `requeueStaleDeliveries`' to pick up.
 */
export async function relayOnce({ db, queue, now, batchSize = RELAY_BATCH_SIZE }: RelayDeps): Promise<number> {
  const at = now();
  const { eventCount, deliveryIds } = await inDirectTransaction(db, async (tx) => {
    const claimed = await claimOutboxEvents(tx, batchSize, at);
    if (claimed.length === 0) return { eventCount: 0, deliveryIds: [] };
    const matches = claimed.filter((row) => row.endpoint_id !== null);
    const ids = newIds('dlv', matches.length, at.getTime());
    const deliveries = matches.map((row, index) => ({
      id: ids[index],
      event_id: row.event_id,
      endpoint_id: row.endpoint_id!,
      account_id: row.account_id,
      status: row.endpoint_status === 'paused' ? ('held' as const) : ('pending' as const),
    }));
    const inserted = deliveries.length > 0 ? new Set(await insertDeliveries(tx, deliveries, at)) : new Set<string>();
    return {
      eventCount: new Set(claimed.map((row) => row.event_id)).size,
      deliveryIds: deliveries.filter((d) => d.status === 'pending' && inserted.has(d.id)).map((d) => d.id),
    };
  });
  try {
    await enqueueDeliveries(queue, deliveryIds);
  } catch (error) {
    throw new EnqueueFailed(deliveryIds, error);
  }
  return eventCount;
}

/**
 * Gives deliveries marked with `requeue_at` (the held deliveries of a resumed endpoint, a retry by
 * hand, a test event) a job that runs now, one batch per call: a finished or delayed job of the
 * same id is replaced, a waiting one is kept, a running one is looked at again on a later call.
 * Returns the number of marks cleared.
 */
export async function enqueueRequestedDeliveries({ db, queue }: RelayDeps, batchSize = 500): Promise<number> {
  if (!(await anyRequeueRequested(db))) return 0;
  return db.$transaction(
    async (tx) => {
      const rows = await claimRequeueRequests(tx, batchSize);
      const cleared: string[] = [];
      const add: string[] = [];
      await Promise.all(
        rows.map(async (row) => {
          if (row.status !== 'pending') return void cleared.push(row.id); // finished or held again meanwhile
          const state = await queue.getJobState(row.id);
          if (state === 'active') return; // being attempted: its outcome counts; looked at again later
          // a finished job, or a retry waiting for its delay, makes way for a new job that runs now
          // with a fresh schedule; a waiting job is kept: it runs now anyway
          const replace = state === 'completed' || state === 'failed' || state === 'delayed';
          if (replace && !(await removeJob(queue, row.id, 0))) return;
          if (replace || state === 'unknown') add.push(row.id);
          cleared.push(row.id);
        }),
      );
      await enqueueDeliveries(queue, add);
      if (cleared.length > 0)
        await tx.webhookDelivery.updateMany({ where: { id: { in: cleared } }, data: { requeue_at: null } });
      return cleared.length;
    },
    { timeout: 30_000 },
  );
}

/**
 * Marks a pending delivery `failed` with a reason (the worker's own errors used up its retry
 * schedule). With `unchangedSince`, only if nobody changed the row since it was read.
 */
export async function failDelivery(
  db: PrismaClient,
  deliveryId: string,
  at: Date,
  reason: string,
  unchangedSince?: Date,
): Promise<boolean> {
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, status: 'pending', ...(unchangedSince ? { updated_at: unchangedSince } : {}) },
    data: { status: 'failed', next_attempt_at: null, failure_reason: reason.slice(0, 500), updated_at: at },
  });
  return count > 0;
}

export interface SweepResult {
  /** Deliveries whose job was missing or finished: they got a new one. */
  enqueued: number;
  /** Deliveries whose job failed in BullMQ (no run left): marked `failed` with the reason. */
  failed: number;
}

/**
 * Repairs pending deliveries that should have been attempted a while ago, by the state of their
 * job (job id = delivery id):
 * - waiting, delayed or active: left alone (the job exists; adding again would be a no-op anyway);
 * - missing (the process died between commit and enqueue, or Redis lost it): enqueued;
 * - completed while the row is still pending: replaced by a new job;
 * - failed (BullMQ used up the attempts on errors that were not delivery failures, e.g. the
 *   database, or the job stalled too often): the delivery is marked `failed` with the reason,
 *   never left pending unseen.
 */
export async function requeueStaleDeliveries(deps: RelayDeps, graceMs = 60_000): Promise<SweepResult> {
  // Every worker's relay sweeps: one at a time. Two at once read the same deliveries, and both
  // enqueued (and counted) a missing job, or replaced a finished one, twice. The second skips its
  // turn (the first has the same deliveries in hand); a transaction-scoped advisory lock, so a
  // crashed worker's turn ends with its connection.
  return deps.db.$transaction(
    async (tx) => {
      const taken = await tryAdvisoryXactLock(tx, REQUEUE_SWEEP_LOCK);
      return taken ? sweepStaleDeliveries(deps, graceMs) : { enqueued: 0, failed: 0 };
    },
    { timeout: 30_000 },
  );
}

const REQUEUE_SWEEP_LOCK = 'webhooks:requeue-stale-deliveries';

async function sweepStaleDeliveries({ db, queue, now }: RelayDeps, graceMs: number): Promise<SweepResult> {
  const stale = await db.webhookDelivery.findMany({
    where: {
      status: 'pending',
      requeue_at: null,
      next_attempt_at: { lt: new Date(now().getTime() - graceMs) },
      endpoint: { deleted_at: null },
    }, // a deleted endpoint's are purged
    select: { id: true, updated_at: true },
    orderBy: { next_attempt_at: 'asc' },
    take: 1000,
  });
  const states = await Promise.all(stale.map((d) => queue.getJobState(d.id)));
  const enqueue: string[] = [];
  let failed = 0;
  for (const [i, delivery] of stale.entries()) {
    const state = states[i];
    if (state === 'unknown') {
      enqueue.push(delivery.id);
    } else if (state === 'completed' || state === 'failed') {
      // The job finished before this read; only a row nobody changed since the first read is inconsistent.
      const unchanged = await db.webhookDelivery.findFirst({
        where: { id: delivery.id, status: 'pending', updated_at: delivery.updated_at },
        select: { id: true },
      });
      if (!unchanged) continue;
      if (state === 'completed') {
        if (await removeJob(queue, delivery.id, 0)) enqueue.push(delivery.id);
        continue;
      }
      const job = await queue.getJob(delivery.id);
      const reason = `The worker could not complete the delivery: ${job?.failedReason ?? 'its job failed'}.`;
      if (await failDelivery(db, delivery.id, now(), reason, delivery.updated_at)) failed++;
    }
  }
  await enqueueDeliveries(queue, enqueue);
  return { enqueued: enqueue.length, failed };
}
