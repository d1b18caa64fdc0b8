// One receiver's answer must never break the deliveries of others: the attempts of concurrent
// deliveries are stored in one batched statement, and a response excerpt PostgreSQL refuses (a NUL
// byte) used to fail the whole batch, so other accounts' deliveries were sent again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import { createTenant, startReceiver, TEST_SERVICES, until, type Tenant } from '@platform/testkit';
import { responseExcerpt } from '../src/delivery.js';
import { storeFor, type AttemptRecord } from '../src/delivery-store-sql.js';
import { recordEvent } from '../src/outbox.js';
import { relayOnce } from '../src/relay.js';
import { startPipeline } from './pipeline.js';

let p: Awaited<ReturnType<typeof startPipeline>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let neighbour: Tenant;

beforeAll(async () => {
  p = await startPipeline();
  receiver = await startReceiver();
  neighbour = await createTenant(p.db.prisma, { service: TEST_SERVICES[0] });
});
afterAll(async () => {
  await receiver.close();
  await p.close();
});

const emit = (accountId: string) =>
  p.db.prisma.$transaction((tx) =>
    recordEvent(tx, {
      accountId,
      service: 'property',
      type: 'property.created',
      data: { property_id: 'prop_1' },
      now: new Date(),
    }),
  );

describe('response excerpts', () => {
  it('are text PostgreSQL accepts: NUL and invalid UTF-8 become U+FFFD', () => {
    expect(responseExcerpt(Buffer.from('ok'))).toBe('ok');
    expect(responseExcerpt(Buffer.alloc(0))).toBeNull();
    expect(responseExcerpt(Buffer.from([0x61, 0x00, 0x62]))).toBe('a\uFFFDb');
    expect(responseExcerpt(Buffer.from([0x61, 0xff, 0xfe, 0x62]))).toBe('a\uFFFD\uFFFDb');
    expect(responseExcerpt(Buffer.from([0xc3]))).toBe(null); // a lone lead byte at the end: left out
  });

  it('keep the first 512 bytes and never cut a character in two', () => {
    const body = Buffer.from('a'.repeat(511) + 'ä' + 'b'.repeat(100)); // 'ä' is 2 bytes: bytes 511 and 512
    expect(responseExcerpt(body)).toBe('a'.repeat(511));
    expect(responseExcerpt(Buffer.from('x'.repeat(2000)))).toHaveLength(512);
  });
});

describe('one bad attempt record in a batch', () => {
  it('fails its own delivery only; the others of the batch are stored', async () => {
    const deliveries = [];
    for (const accountId of [p.tenant.accountId, neighbour.accountId]) {
      const endpoint = await p.addEndpoint('http://127.0.0.1:9/unused', ['property.created'], accountId);
      const eventId = await emit(accountId);
      deliveries.push(
        await p.db.prisma.webhookDelivery.create({
          data: { id: newId('dlv'), event_id: eventId, endpoint_id: endpoint.id, account_id: accountId },
        }),
      );
    }
    await p.db.prisma.outboxEvent.updateMany({ data: { relayed_at: new Date() } });
    const record = (deliveryId: string, endpointId: string, excerpt: string): AttemptRecord => {
      const at = new Date();
      return {
        attemptId: newId('att'),
        deliveryId,
        endpointId,
        startedAt: at,
        at,
        statusCode: 200,
        durationMs: 3,
        errorClass: null,
        excerpt,
        status: 'succeeded',
        nextAttemptAt: null,
        ok: true,
      };
    };
    const store = storeFor(p.db.prisma);
    // Called in the same tick: one batch. The first excerpt is refused by PostgreSQL as it stands.
    const [bad, good] = await Promise.allSettled([
      store.record.call(record(deliveries[0].id, deliveries[0].endpoint_id, 'nul \u0000 here')),
      store.record.call(record(deliveries[1].id, deliveries[1].endpoint_id, 'fine')),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good.status).toBe('fulfilled');
    expect(
      await p.db.prisma.deliveryAttempt.findMany({
        where: { delivery_id: deliveries[1].id },
        select: { response_excerpt: true },
      }),
    ).toEqual([{ response_excerpt: 'fine' }]);
    expect(await p.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveries[1].id } })).toMatchObject({
      status: 'succeeded',
      attempt_count: 1,
    });
    expect(await p.db.prisma.deliveryAttempt.count({ where: { delivery_id: deliveries[0].id } })).toBe(0);
  });
});

describe('a receiver answering with a NUL byte', () => {
  it("records its attempt, and another account's endpoint is delivered once, not re-sent", async () => {
    // Both requests are answered together, so that both attempts are recorded in one batch.
    const waiting: (() => void)[] = [];
    receiver.respond = (req, res) => {
      waiting.push(() =>
        req.path === '/poison'
          ? res.writeHead(200).end(Buffer.from([0x6f, 0x6b, 0x00, 0x62, 0x61, 0x64, 0xff]))
          : res.writeHead(200).end('fine'),
      );
      if (waiting.length === 2) waiting.splice(0).forEach((answer) => answer());
    };
    const poisoned = await p.addEndpoint(`${receiver.url}/poison`, ['property.created'], p.tenant.accountId);
    const healthy = await p.addEndpoint(`${receiver.url}/healthy`, ['property.created'], neighbour.accountId);
    p.startWorker({}, { retryDelaysMs: [200, 200, 200, 200, 200] }); // a re-sent delivery would show at once
    await emit(p.tenant.accountId);
    await emit(neighbour.accountId);
    await relayOnce({ db: p.db.prisma, queue: p.queue, now: () => new Date() });

    const deliveryOf = (endpointId: string) =>
      p.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: endpointId }, include: { attempts: true } });
    const bad = await until(async () => {
      const d = await deliveryOf(poisoned.id);
      return d.attempts.length === 1 && d.status !== 'pending' ? d : undefined; // the attempt row and the status are written apart
    });
    expect(bad).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(bad.attempts[0]).toMatchObject({
      status_code: 200,
      error_class: null,
      response_excerpt: 'ok\uFFFDbad\uFFFD',
    });
    const good = await until(async () => {
      const d = await deliveryOf(healthy.id);
      return d.attempts.length === 1 && d.status !== 'pending' ? d : undefined; // the attempt row and the status are written apart
    });
    expect(good).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(good.attempts[0]).toMatchObject({ response_excerpt: 'fine' });

    await new Promise((resolve) => setTimeout(resolve, 1000)); // five retry delays would have passed
    expect(receiver.received.filter((r) => r.path === '/healthy')).toHaveLength(1);
    expect(receiver.received.filter((r) => r.path === '/poison')).toHaveLength(1);
    expect(await p.queue.getJobState(good.id)).toBe('completed');
    expect(await p.queue.getJobState(bad.id)).toBe('completed');
  });
});
