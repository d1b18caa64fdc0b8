import type { PrismaClient, Service } from '@platform/db';
import { newId } from '@platform/db';
import type { Queue } from 'bullmq';
import { enqueueDeliveries, type DeliveryJob } from './queue.js';
import { claimOutboxEvents, type PendingEvent } from './relay-sql.js';

export interface RelayDeps {
  db: PrismaClient;
  queue: Queue<DeliveryJob>;
  now: () => Date;
  batchSize?: number;
}


/**
 * Moves one batch of outbox events into deliveries (one per subscribed endpoint) and the
 * queue. Rows are claimed with `FOR UPDATE SKIP LOCKED`, so several relays can run. Deliveries
 * and the event's `relayed_at` are written in one transaction; enqueueing follows, with job id
 * = delivery id, so a crash in between is repaired by `requeueStaleDeliveries` and a repeated
 * relay run adds nothing twice (deliveries are unique per event and endpoint).
 */
export async function relayOnce({ db, queue, now, batchSize = 200 }: RelayDeps): Promise<number> {
  const { eventCount, deliveryIds } = await db.$transaction(async (tx) => {
    const events = await claimOutboxEvents(tx, batchSize);
    if (events.length === 0) return { eventCount: 0, deliveryIds: [] };
    const at = now();
    const endpoints = await tx.webhookEndpoint.findMany({
      where: { OR: uniqueTenants(events).map(([account_id, service]) => ({ account_id, service })) },
      select: { id: true, account_id: true, service: true, status: true, events: true },
    });
    const deliveries = events.flatMap((event) =>
      endpoints
        .filter((ep) => ep.account_id === event.account_id && ep.service === event.service && ep.events.includes(event.type))
        .map((ep) => ({
          id: newId('dlv', at.getTime()),
          event_id: event.id,
          endpoint_id: ep.id,
          account_id: event.account_id,
          status: ep.status === 'paused' ? ('held' as const) : ('pending' as const),
          next_attempt_at: at,
          created_at: at,
          updated_at: at,
        })),
    );
    const ids = events.map((e) => e.id);
    await tx.webhookDelivery.createMany({ data: deliveries, skipDuplicates: true });
    await tx.outboxEvent.updateMany({ where: { id: { in: ids } }, data: { relayed_at: at } });
    const pending = await tx.webhookDelivery.findMany({ where: { event_id: { in: ids }, status: 'pending' }, select: { id: true } });
    return { eventCount: events.length, deliveryIds: pending.map((d) => d.id) };
  });
  await enqueueDeliveries(queue, deliveryIds);
  return eventCount;
}

function uniqueTenants(events: PendingEvent[]): [string, Service][] {
  const seen = new Map<string, [string, Service]>();
  for (const e of events) seen.set(`${e.account_id}|${e.service}`, [e.account_id, e.service]);
  return [...seen.values()];
}

/**
 * Re-enqueues pending deliveries that should have been attempted a while ago (the process died
 * between commit and enqueue). Jobs that exist are left alone, so this never duplicates.
 */
export async function requeueStaleDeliveries({ db, queue, now }: RelayDeps, graceMs = 60_000): Promise<number> {
  const stale = await db.webhookDelivery.findMany({
    where: { status: 'pending', next_attempt_at: { lt: new Date(now().getTime() - graceMs) } },
    select: { id: true },
    take: 1000,
  });
  await enqueueDeliveries(queue, stale.map((d) => d.id));
  return stale.length;
}
