// Resume and delete do no per-delivery work in the request: resuming marks the held deliveries in
// one UPDATE and the relay enqueues them in batches; deleting hides the endpoint at once and the
// relay's sweep removes its history in batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, until, type Receiver } from '@platform/testkit';
import { enqueueRequestedDeliveries, purgeDeletedEndpoints, relayOnce } from '@platform/webhooks';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let receiver: Receiver;
let stopWorkers: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ctx = await startPropertyApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await stopWorkers?.();
  await receiver.close();
  await ctx.close();
});

const startDelivery = async () => (stopWorkers = await ctx.startWebhookDelivery());
const stopDelivery = async () => {
  await stopWorkers?.();
  stopWorkers = undefined;
};
const createProperties = async (n: number) => {
  for (let i = 0; i < n; i++) expect((await ctx.send('POST', '/v1/properties', validProperty())).statusCode).toBe(201);
};
const relayDeps = () => ({ db: ctx.db.prisma, queue: ctx.webhooks.queue, now: () => new Date() });

describe('PATCH /v1/webhooks/{id} {"status":"active"}', () => {
  it('answers at once with the held deliveries pending; the relay enqueues them in batches and each is sent once', async () => {
    await startDelivery();
    const hook = (
      await ctx.send('POST', '/v1/webhooks', { url: `${receiver.url}/resume`, events: ['property.created'] })
    ).json();
    expect((await ctx.send('PATCH', `/v1/webhooks/${hook.id}`, { status: 'paused' })).statusCode).toBe(200);
    await createProperties(120);
    await until(
      async () =>
        (await ctx.db.prisma.webhookDelivery.count({ where: { endpoint_id: hook.id, status: 'held' } })) === 120,
    );
    await stopDelivery(); // no relay: what the request itself does is all that happens

    const res = await ctx.send('PATCH', `/v1/webhooks/${hook.id}`, { status: 'active' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', paused_at: null });
    const rows = await ctx.db.prisma.webhookDelivery.findMany({ where: { endpoint_id: hook.id } });
    expect(
      rows.every(
        (d) =>
          d.status === 'pending' && d.requeue_at !== null && d.next_attempt_at?.getTime() === ctx.clock.now.getTime(),
      ),
    ).toBe(true);
    const states = await Promise.all(rows.map((d) => ctx.webhooks.queue.getJobState(d.id)));
    expect(states.filter((s) => s !== 'unknown')).toEqual([]); // the request added no job
    expect(receiver.received).toHaveLength(0);

    // The relay's step, in batches (here 50), clears the marks as it enqueues.
    expect(await enqueueRequestedDeliveries(relayDeps(), 50)).toBe(50);
    expect(
      await ctx.db.prisma.webhookDelivery.count({ where: { endpoint_id: hook.id, requeue_at: { not: null } } }),
    ).toBe(70);
    await startDelivery();
    await receiver.waitFor(120, '/resume', 20_000);
    await until(
      async () =>
        (await ctx.db.prisma.webhookDelivery.count({ where: { endpoint_id: hook.id, status: 'succeeded' } })) === 120,
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.filter((r) => r.path === '/resume')).toHaveLength(120);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery'])).size).toBe(120);
    expect(await ctx.db.prisma.webhookDelivery.count({ where: { requeue_at: { not: null } } })).toBe(0);
  }, 60_000);
});

describe('DELETE /v1/webhooks/{id}', () => {
  it('hides the endpoint at once and sends nothing more; its history is removed in batches afterwards', async () => {
    if (!stopWorkers) await startDelivery();
    const hook = (
      await ctx.send('POST', '/v1/webhooks', { url: `${receiver.url}/deleted`, events: ['property.created'] })
    ).json();
    const kept = (
      await ctx.send('POST', '/v1/webhooks', { url: `${receiver.url}/kept`, events: ['property.created'] })
    ).json();
    await createProperties(25);
    await until(
      async () =>
        (await ctx.db.prisma.webhookDelivery.count({ where: { endpoint_id: hook.id, status: 'succeeded' } })) === 25,
      20_000,
    );
    await stopDelivery(); // from here the test drives the relay's steps itself

    const res = await ctx.send('DELETE', `/v1/webhooks/${hook.id}`);
    expect(res.statusCode).toBe(204);
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['GET', '/deliveries'],
      ['POST', '/test'],
      ['POST', '/rotate-secret'],
    ]) {
      const again = await ctx.send(
        method,
        `/v1/webhooks/${hook.id}${suffix}`,
        method === 'PATCH' ? { description: 'x' } : undefined,
      );
      expect(again.statusCode, `${method} ${suffix}`).toBe(404);
    }
    const listed = (await ctx.send('GET', '/v1/webhooks?limit=100')).json().data.map((w: { id: string }) => w.id);
    expect(listed).not.toContain(hook.id);
    expect(listed).toContain(kept.id);
    // The request removed no history: the row is marked, its 25 deliveries are still there.
    expect((await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } })).deleted_at).toEqual(
      ctx.clock.now,
    );
    expect(await ctx.db.prisma.webhookDelivery.count({ where: { endpoint_id: hook.id } })).toBe(25);

    await createProperties(1); // a new event reaches the kept endpoint only
    await relayOnce(relayDeps());
    expect(await ctx.db.prisma.webhookDelivery.count({ where: { endpoint_id: hook.id } })).toBe(25);
    expect(await ctx.db.prisma.webhookDelivery.count({ where: { endpoint_id: kept.id } })).toBe(26);

    // The background step: batches of 10, at most 2 per call.
    expect(await purgeDeletedEndpoints(ctx.db.prisma, { batchSize: 10, maxBatches: 2 })).toBe(20);
    expect(await ctx.db.prisma.webhookEndpoint.count({ where: { id: hook.id } })).toBe(1);
    expect(await purgeDeletedEndpoints(ctx.db.prisma, { batchSize: 10, maxBatches: 2 })).toBe(5);
    expect(await ctx.db.prisma.webhookEndpoint.count({ where: { id: hook.id } })).toBe(0);
    expect(await ctx.db.prisma.deliveryAttempt.count({ where: { delivery: { endpoint_id: hook.id } } })).toBe(0);
    expect(await ctx.db.prisma.webhookDelivery.count({ where: { endpoint_id: kept.id } })).toBe(26); // others untouched
    expect(await purgeDeletedEndpoints(ctx.db.prisma)).toBe(0);
  }, 60_000);
});
