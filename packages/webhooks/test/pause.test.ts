import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptDelivery } from '../src/delivery.js';
import { resumeEndpoint } from '../src/endpoint-ops.js';
import { recordEvent } from '../src/outbox.js';
import { enqueueRequestedDeliveries, relayOnce } from '../src/relay.js';
import { startPipeline } from './pipeline.js';
import { startReceiver, until } from '@platform/testkit';

let p: Awaited<ReturnType<typeof startPipeline>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const HOUR = 3_600_000;

beforeAll(async () => {
  p = await startPipeline();
  receiver = await startReceiver((_r, res) => res.writeHead(503).end());
});
afterAll(async () => {
  await receiver.close();
  await p.close();
});

const emit = () =>
  p.db.prisma.$transaction((tx) =>
    recordEvent(tx, {
      accountId: p.tenant.accountId,
      service: 'property',
      type: 'property.created',
      data: { property_id: 'prop_1' },
      now: p.clock.now,
    }),
  );
const relay = () => relayOnce({ db: p.db.prisma, queue: p.queue, now: () => p.clock.now });
const deliveryOf = (endpointId: string) =>
  p.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: endpointId }, orderBy: { created_at: 'asc' } });

describe('endpoint pause', () => {
  it('pauses after 24 h without success, holds new events, and delivers them after a resume', async () => {
    const endpoint = await p.addEndpoint(`${receiver.url}/pause`);
    const start = new Date('2026-11-20T08:00:00Z');
    p.clock.now = start;
    await emit();
    await relay();
    const first = await deliveryOf(endpoint.id);
    expect(await attemptDelivery(p.deps, first.id, 1)).toBe('retry');
    expect((await p.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).failing_since).toEqual(
      start,
    );

    p.clock.now = new Date(start.getTime() + 23 * HOUR);
    expect(await attemptDelivery(p.deps, first.id, 2)).toBe('retry');
    p.clock.now = new Date(start.getTime() + 24 * HOUR);
    expect(await attemptDelivery(p.deps, first.id, 3)).toBe('held');
    const paused = await p.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(paused.status).toBe('paused');

    await emit(); // arrives while paused: held, not attempted
    await relay();
    const requestsWhilePaused = receiver.received.length;
    expect(await p.db.prisma.webhookDelivery.count({ where: { endpoint_id: endpoint.id, status: 'held' } })).toBe(2);

    receiver.respond = (_r, res) => res.writeHead(202).end();
    expect(await resumeEndpoint(p.db.prisma, endpoint.id, p.clock.now)).toBe(2);
    expect(await enqueueRequestedDeliveries({ db: p.db.prisma, queue: p.queue, now: () => p.clock.now })).toBe(2); // the relay's part
    const worker = p.startWorker();
    await until(
      async () =>
        (await p.db.prisma.webhookDelivery.count({ where: { endpoint_id: endpoint.id, status: 'succeeded' } })) === 2,
    );
    expect(receiver.received.length).toBe(requestsWhilePaused + 2);
    const resumed = await p.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(resumed).toMatchObject({ status: 'active', failing_since: null, paused_at: null });
    receiver.respond = (_r, res) => res.writeHead(503).end();
    await worker.close(); // the next tests drive attempts themselves
  });

  it('a success resets the 24 h window', async () => {
    const endpoint = await p.addEndpoint(`${receiver.url}/window`);
    const start = new Date('2026-11-10T08:00:00Z');
    p.clock.now = start;
    await emit();
    await p.db.prisma.outboxEvent.updateMany({ where: { relayed_at: null }, data: {} });
    await relay();
    const delivery = await deliveryOf(endpoint.id);
    await p.queue.remove(delivery.id); // driven by hand in this test
    expect(await attemptDelivery(p.deps, delivery.id, 1)).toBe('retry');
    receiver.respond = (_r, res) => res.writeHead(200).end();
    p.clock.now = new Date(start.getTime() + 20 * HOUR);
    expect(await attemptDelivery(p.deps, delivery.id, 2)).toBe('succeeded');
    receiver.respond = (_r, res) => res.writeHead(503).end();

    p.clock.now = new Date(start.getTime() + 30 * HOUR); // 30 h after the first failure, 10 h after the success
    await emit();
    await relay();
    const next = await p.db.prisma.webhookDelivery.findFirstOrThrow({
      where: { endpoint_id: endpoint.id, status: 'pending' },
    });
    await p.queue.remove(next.id);
    expect(await attemptDelivery(p.deps, next.id, 1)).toBe('retry');
    expect((await p.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).status).toBe('active');
  });
});
