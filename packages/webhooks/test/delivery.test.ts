import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../src/outbox.js';
import { relayOnce } from '../src/relay.js';
import { RETRY_DELAYS_MS } from '../src/schedule.js';
import { startPipeline } from './pipeline.js';
import { startReceiver, until } from '@platform/testkit';

let p: Awaited<ReturnType<typeof startPipeline>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  p = await startPipeline();
  receiver = await startReceiver();
  p.startWorker();
});
afterEach(() => {
  receiver.received.length = 0;
  receiver.respond = (_r, res) => res.writeHead(200).end('ok');
});
afterAll(async () => {
  await receiver.close();
  await p.close();
});

const emit = (data: Record<string, unknown> = { property_id: 'prop_1' }) =>
  p.db.prisma.$transaction((tx) =>
    recordEvent(tx, {
      accountId: p.tenant.accountId,
      service: 'property',
      type: 'property.created',
      data,
      now: p.clock.now,
    }),
  );
const relay = () => relayOnce({ db: p.db.prisma, queue: p.queue, now: () => p.clock.now });

describe('delivery', () => {
  it('sends the signed body byte for byte with the service headers', async () => {
    const endpoint = await p.addEndpoint(`${receiver.url}/hooks/a`);
    const eventId = await emit();
    await relay();
    const [got] = await receiver.waitFor(1);
    const header = String(got.headers['x-service-signature']);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)!;
    const independent = createHmac('sha256', endpoint.secret)
      .update(Buffer.concat([Buffer.from(`${t}.`), got.raw]))
      .digest('hex');
    expect(v1).toBe(independent);
    const body = JSON.parse(got.raw.toString());
    expect(body).toEqual({
      id: eventId,
      type: 'property.created',
      created_at: p.clock.now.toISOString(),
      data: { property_id: 'prop_1' },
    });
    expect(got.headers['x-service-event']).toBe('property.created');
    const delivery = await p.db.prisma.webhookDelivery.findFirstOrThrow({
      where: { event_id: eventId, endpoint_id: endpoint.id },
    });
    expect(got.headers['x-service-delivery']).toBe(delivery.id);
    await until(
      async () =>
        (await p.db.prisma.webhookDelivery.findUnique({ where: { id: delivery.id } }))?.status === 'succeeded',
    );
    const attempts = await p.db.prisma.deliveryAttempt.findMany({ where: { delivery_id: delivery.id } });
    expect(attempts).toEqual([
      expect.objectContaining({ status_code: 200, error_class: null, response_excerpt: 'ok' }),
    ]);
    await p.db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });

  it('retries exactly after 1 min, 5 min, 30 min, 2 h and 6 h, then fails, with the same event id', async () => {
    expect(RETRY_DELAYS_MS).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 21_600_000]);
    receiver.respond = (_r, res) => res.writeHead(500).end('down');
    const endpoint = await p.addEndpoint(`${receiver.url}/hooks/b`);
    const eventId = await emit();
    await relay();
    const delivery = await p.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: endpoint.id } });
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      await until(
        async () => (await p.db.prisma.deliveryAttempt.count({ where: { delivery_id: delivery.id } })) === attempt,
      );
      const job = await until(async () => {
        const j = await p.queue.getJob(delivery.id);
        return j && (await j.getState()) === 'delayed' && j.attemptsMade === attempt ? j : undefined;
      });
      delays.push(job.delay);
      await job.promote(); // as if the delay had passed
    }
    await until(
      async () => (await p.db.prisma.webhookDelivery.findUnique({ where: { id: delivery.id } }))?.status === 'failed',
    );
    expect(delays).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 21_600_000]);
    expect(await p.db.prisma.deliveryAttempt.count({ where: { delivery_id: delivery.id } })).toBe(6);
    const received = receiver.received.filter((r) => r.path === '/hooks/b');
    expect(received).toHaveLength(6);
    expect(new Set(received.map((r) => JSON.parse(r.raw.toString()).id))).toEqual(new Set([eventId]));
    expect(new Set(received.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([delivery.id]));
    await p.db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });

  it('counts a 302 as a failure and does not follow it', async () => {
    receiver.respond = (req, res) =>
      req.path === '/hooks/c' ? res.writeHead(302, { location: '/elsewhere' }).end() : res.writeHead(200).end();
    const endpoint = await p.addEndpoint(`${receiver.url}/hooks/c`);
    await emit();
    await relay();
    const attempt = await until(() =>
      p.db.prisma.deliveryAttempt.findFirst({ where: { delivery: { endpoint_id: endpoint.id } } }),
    );
    expect(attempt).toMatchObject({ status_code: 302, error_class: 'redirect' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks/c']);
    await p.db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });
});

describe('outbox and relay', () => {
  it('writes no event and makes no delivery when the transaction rolls back', async () => {
    const endpoint = await p.addEndpoint(`${receiver.url}/hooks/d`);
    const before = await p.db.prisma.outboxEvent.count();
    await expect(
      p.db.prisma.$transaction(async (tx) => {
        await recordEvent(tx, {
          accountId: p.tenant.accountId,
          service: 'property',
          type: 'property.created',
          data: {},
          now: p.clock.now,
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await p.db.prisma.outboxEvent.count()).toBe(before);
    expect(await relay()).toBe(0);
    expect(await p.db.prisma.webhookDelivery.count({ where: { endpoint_id: endpoint.id } })).toBe(0);
    await p.db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });

  it('a relay that runs again for the same events (restart before marking) delivers nothing twice', async () => {
    const endpoint = await p.addEndpoint(`${receiver.url}/hooks/e`);
    const eventId = await emit();
    await relay();
    await receiver.waitFor(1);
    await p.db.prisma.outboxEvent.update({ where: { id: eventId }, data: { relayed_at: null } }); // the mark was lost
    expect(await relay()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await p.db.prisma.webhookDelivery.count({ where: { event_id: eventId } })).toBe(1);
    expect(receiver.received.filter((r) => r.path === '/hooks/e')).toHaveLength(1);
    await p.db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });

  it('sends one delivery per subscribed endpoint with the same event id, and none to others', async () => {
    const a = await p.addEndpoint(`${receiver.url}/hooks/f1`);
    const b = await p.addEndpoint(`${receiver.url}/hooks/f2`);
    const other = await p.addEndpoint(`${receiver.url}/hooks/f3`, ['property.archived']);
    const eventId = await emit();
    await relay();
    const got = await receiver.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got.map((r) => r.path).sort()).toEqual(['/hooks/f1', '/hooks/f2']);
    expect(got.map((r) => JSON.parse(r.raw.toString()).id)).toEqual([eventId, eventId]);
    expect(got[0].headers['x-service-delivery']).not.toBe(got[1].headers['x-service-delivery']);
    for (const ep of [a, b, other]) await p.db.prisma.webhookEndpoint.delete({ where: { id: ep.id } });
  });
});
