// Issue 33, item 1: the relay's periodic repairs run in every worker, so two run at once in production.
// `requeueStaleDeliveries` and `enqueueRequestedDeliveries` run twice at once give each delivery one
// job and count it once. The overlap is forced: the first run is held inside its queue lookups (after
// it has read the deliveries, before it enqueues anything) while the second runs from start to end.
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import type { DeliveryJob } from '../src/queue.js';
import { enqueueRequestedDeliveries, requeueStaleDeliveries } from '../src/relay.js';
import { startPipeline } from './pipeline.js';

let p: Awaited<ReturnType<typeof startPipeline>>;
beforeAll(async () => {
  p = await startPipeline();
});
afterAll(() => p.close());
beforeEach(async () => {
  // Each test starts with no jobs and no pending deliveries but its own.
  await p.queue.obliterate({ force: true });
  await p.db.prisma.webhookDelivery.updateMany({ where: { status: 'pending' }, data: { status: 'succeeded' } });
});

/** Pending deliveries that should have been attempted five minutes ago, no job (or requeue mark) yet. */
async function pendingDeliveries(count: number, requeue = false): Promise<string[]> {
  const endpoint = await p.addEndpoint('https://hooks.example.com/overlap');
  const at = new Date(Date.now() - 5 * 60_000);
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const eventId = newId('evt');
    await p.db.prisma.outboxEvent.create({
      data: {
        id: eventId,
        account_id: p.tenant.accountId,
        service: 'property',
        type: 'property.created',
        payload: '{}',
        created_at: at,
        relayed_at: at,
      },
    });
    const delivery = await p.db.prisma.webhookDelivery.create({
      data: {
        id: newId('dlv'),
        event_id: eventId,
        endpoint_id: endpoint.id,
        account_id: p.tenant.accountId,
        next_attempt_at: at,
        requeue_at: requeue ? at : null,
        created_at: at,
        updated_at: at,
      },
    });
    ids.push(delivery.id);
  }
  return ids;
}

/**
 * The pipeline's queue, except that its job-state lookups wait for `gate` (having looked): the run
 * given it has read its deliveries and their jobs' states, and has enqueued nothing yet. `reached`
 * resolves at its first lookup.
 */
function heldQueue() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let arrive!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const queue = new Proxy(p.queue, {
    get(target, property) {
      if (property === 'getJobState')
        return async (id: string) => {
          const state = await target.getJobState(id);
          arrive();
          await gate;
          return state;
        };
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Queue<DeliveryJob>;
  return { queue, reached, open };
}

const jobsOf = async (ids: string[]) => (await Promise.all(ids.map((id) => p.queue.getJob(id)))).filter(Boolean);

describe('the relay’s repairs run by two workers at once', () => {
  it('requeueStaleDeliveries: 6 deliveries without a job get one job each, counted 6 together, not 6 each', async () => {
    const ids = await pendingDeliveries(6);
    const held = heldQueue();
    const first = requeueStaleDeliveries({ db: p.db.prisma, queue: held.queue, now: () => new Date() });
    await held.reached;
    const second = await requeueStaleDeliveries({ db: p.db.prisma, queue: p.queue, now: () => new Date() });
    held.open();
    const result = [await first, second];
    expect(result[0].enqueued + result[1].enqueued).toBe(ids.length);
    expect(result[0].failed + result[1].failed).toBe(0);
    const jobs = await jobsOf(ids);
    expect(jobs).toHaveLength(ids.length);
    expect(await p.queue.getWaitingCount()).toBe(ids.length); // one job per delivery, none replaced
  });

  it('enqueueRequestedDeliveries: 6 deliveries marked for a new job get one job each and are cleared once, 6 together', async () => {
    const ids = await pendingDeliveries(6, true);
    const held = heldQueue();
    const first = enqueueRequestedDeliveries({ db: p.db.prisma, queue: held.queue, now: () => new Date() });
    await held.reached;
    const second = await enqueueRequestedDeliveries({ db: p.db.prisma, queue: p.queue, now: () => new Date() });
    held.open();
    const result = [await first, second];
    expect(result[0] + result[1]).toBe(ids.length);
    expect(await p.db.prisma.webhookDelivery.count({ where: { id: { in: ids }, requeue_at: { not: null } } })).toBe(0);
    expect(await jobsOf(ids)).toHaveLength(ids.length);
    expect(await p.queue.getWaitingCount()).toBe(ids.length);
  });
});
