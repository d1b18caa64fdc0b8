import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, until, whileHeld } from '@platform/testkit';
import { advisoryXactLock } from '@platform/db';
import { pauseEndpoint, resumeEndpoint } from '../src/endpoint-ops.js';
import { recordEvent } from '../src/outbox.js';
import { advanceRedeliveries, createRedelivery, redeliveryOutcomes } from '../src/redelivery-sql.js';
import { enqueueRequestedDeliveries, relayOnce } from '../src/relay.js';
import { createRedeliveryService } from '../src/routes/redelivery-service.js';
import { startPipeline } from './pipeline.js';

let p: Awaited<ReturnType<typeof startPipeline>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const MINUTE = 60_000;

beforeAll(async () => {
  p = await startPipeline();
  receiver = await startReceiver((_r, res) => res.writeHead(200).end());
});
afterAll(async () => {
  await receiver.close();
  await p.close();
});

const relayDeps = () => ({ db: p.db.prisma, queue: p.queue, now: () => p.clock.now });

/** An endpoint with one delivery per status given, a minute apart from `start`, none of them queued. */
async function endpointWithDeliveries(path: string, start: Date, statuses: ('failed' | 'succeeded' | 'pending')[]) {
  const endpoint = await p.addEndpoint(`${receiver.url}${path}`);
  for (const [i] of statuses.entries()) {
    p.clock.now = new Date(start.getTime() + i * MINUTE);
    await p.db.prisma.$transaction((tx) =>
      recordEvent(tx, {
        accountId: p.tenant.accountId,
        service: 'property',
        type: 'property.created',
        data: { property_id: `prop_${i}` },
        now: p.clock.now,
      }),
    );
    await relayOnce(relayDeps());
  }
  await p.queue.drain(true); // the statuses below are set by hand: no job of the first round runs
  const deliveries = await p.db.prisma.webhookDelivery.findMany({
    where: { endpoint_id: endpoint.id },
    orderBy: { created_at: 'asc' },
  });
  for (const [i, delivery] of deliveries.entries())
    await p.db.prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { status: statuses[i] } });
  return { endpoint, deliveries };
}

describe('bulk redelivery', () => {
  it('queues the failed deliveries since the time in batches, each once, and counts how they came out', async () => {
    const start = new Date('2026-11-20T08:00:00Z');
    const statuses = ['failed', 'failed', 'succeeded', 'failed', 'pending', 'failed', 'failed'] as const;
    const { endpoint, deliveries } = await endpointWithDeliveries('/bulk', start, [...statuses]);
    p.clock.now = new Date(start.getTime() + 60 * MINUTE);
    const since = new Date(start.getTime() + MINUTE); // leaves the first one out
    const created = await createRedelivery(p.db.prisma, {
      endpointId: endpoint.id,
      accountId: p.tenant.accountId,
      since,
      selection: 'failed',
      at: p.clock.now,
    });
    if (!created.created) throw new Error('expected a new redelivery');
    expect(created.row).toMatchObject({ status: 'running', total: 4, queued: 0 });
    const again = await createRedelivery(p.db.prisma, {
      endpointId: endpoint.id,
      accountId: p.tenant.accountId,
      since,
      selection: 'all',
      at: p.clock.now,
    });
    expect(again).toMatchObject({ created: false, running: { id: created.row.id } }); // one at a time per endpoint

    expect(await advanceRedeliveries(p.db.prisma, () => p.clock.now, 3)).toBe(3);
    // The next batch waits until the relay gave this one its jobs.
    expect(await advanceRedeliveries(p.db.prisma, () => p.clock.now, 3)).toBe(0);
    expect(await enqueueRequestedDeliveries(relayDeps())).toBe(3);
    expect(await advanceRedeliveries(p.db.prisma, () => p.clock.now, 3)).toBe(1);
    expect(await enqueueRequestedDeliveries(relayDeps())).toBe(1);
    expect(await advanceRedeliveries(p.db.prisma, () => p.clock.now, 3)).toBe(0); // completed: nothing more, ever

    const row = await p.db.prisma.webhookRedelivery.findUniqueOrThrow({ where: { id: created.row.id } });
    expect(row).toMatchObject({ status: 'completed', total: 4, queued: 4 });
    const marked = await p.db.prisma.webhookDelivery.findMany({
      where: { redelivery_id: created.row.id },
      orderBy: { created_at: 'asc' },
    });
    expect(marked.map((d) => d.id)).toEqual([1, 3, 5, 6].map((i) => deliveries[i].id));
    // Left alone: before `since` (0), succeeded (2), still pending (4: on its way, never sent twice at once).
    for (const [i, status] of [
      [0, 'failed'],
      [2, 'succeeded'],
      [4, 'pending'],
    ] as const) {
      expect(await p.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveries[i].id } })).toMatchObject({
        status,
        redelivery_id: null,
        requeue_at: null,
      });
    }

    const worker = p.startWorker();
    await until(async () => (await redeliveryOutcomes(p.db.prisma, created.row.id)).succeeded === 4);
    await worker.close();
    const sent = receiver.received.filter((r) => r.path === '/bulk');
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((r) => (JSON.parse(r.raw.toString()) as { id: string }).id)).size).toBe(4);
  });

  it('with `all`, also sends the succeeded ones; while the endpoint is paused it waits, and goes on after the resume', async () => {
    const start = new Date('2026-11-21T08:00:00Z');
    const { endpoint } = await endpointWithDeliveries('/all', start, ['succeeded', 'failed', 'succeeded']);
    p.clock.now = new Date(start.getTime() + 60 * MINUTE);
    const created = await createRedelivery(p.db.prisma, {
      endpointId: endpoint.id,
      accountId: p.tenant.accountId,
      since: start,
      selection: 'all',
      at: p.clock.now,
    });
    if (!created.created) throw new Error('expected a new redelivery');
    expect(created.row.total).toBe(3);
    await pauseEndpoint(p.db.prisma, endpoint.id, p.clock.now);
    expect(await advanceRedeliveries(p.db.prisma, () => p.clock.now)).toBe(0);
    expect((await p.db.prisma.webhookRedelivery.findUniqueOrThrow({ where: { id: created.row.id } })).status).toBe(
      'running',
    );
    await resumeEndpoint(p.db.prisma, endpoint.id, p.clock.now);
    expect(await advanceRedeliveries(p.db.prisma, () => p.clock.now)).toBe(3);
    expect((await p.db.prisma.webhookRedelivery.findUniqueOrThrow({ where: { id: created.row.id } })).status).toBe(
      'completed',
    );
  });

  it('the operation refuses a future `since`, a paused endpoint and a second running redelivery', async () => {
    const service = createRedeliveryService({ db: p.db.prisma, now: () => p.clock.now });
    const { endpoint } = await endpointWithDeliveries('/refusals', new Date('2026-11-22T08:00:00Z'), ['failed']);
    p.clock.now = new Date('2026-11-22T09:00:00Z');
    const find = async () => p.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    await expect(service.create(find, endpoint.id, { since: '2026-11-22T10:00:00Z' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'since', reason: 'out_of_range' }],
    });
    const first = await service.create(find, endpoint.id, { since: '2026-11-22T00:00:00Z' });
    expect(first).toMatchObject({
      webhook_id: endpoint.id,
      selection: { since: '2026-11-22T00:00:00.000Z', status: 'failed' },
      status: 'running',
      counts: { total: 1, queued: 0, pending: 0, succeeded: 0, failed: 0 },
    });
    await expect(service.create(find, endpoint.id, { since: '2026-11-22T00:00:00Z' })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(service.get(find, endpoint.id, 'rdl_missing')).rejects.toMatchObject({ code: 'not_found' });
    expect(await service.get(find, endpoint.id, first.id)).toMatchObject({ id: first.id, status: 'running' });
    await pauseEndpoint(p.db.prisma, endpoint.id, p.clock.now);
    await p.db.prisma.webhookRedelivery.update({ where: { id: first.id }, data: { status: 'completed' } });
    await expect(service.create(find, endpoint.id, { since: '2026-11-22T00:00:00Z' })).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it("two requests at once for one endpoint create one redelivery (the endpoint's lock decides)", async () => {
    const { endpoint } = await endpointWithDeliveries('/race', new Date('2026-11-23T08:00:00Z'), ['failed']);
    p.clock.now = new Date('2026-11-23T09:00:00Z');
    const create = () =>
      createRedelivery(p.db.prisma, {
        endpointId: endpoint.id,
        accountId: p.tenant.accountId,
        since: new Date('2026-11-23T00:00:00Z'),
        selection: 'failed',
        at: p.clock.now,
      });
    const { result, waited } = await whileHeld(
      p.db,
      (tx) => advisoryXactLock(tx, `webhook-redeliveries:${endpoint.id}`),
      () => Promise.all([create(), create()]),
      2,
    );
    expect(waited).toBe(2);
    expect(result.filter((r) => r.created)).toHaveLength(1);
    expect(await p.db.prisma.webhookRedelivery.count({ where: { endpoint_id: endpoint.id } })).toBe(1);
  });
});
