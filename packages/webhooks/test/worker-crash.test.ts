import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../src/outbox.js';
import { relayOnce } from '../src/relay.js';
import { startPipeline } from './pipeline.js';
import { startReceiver, until } from '@platform/testkit';

let p: Awaited<ReturnType<typeof startPipeline>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  p = await startPipeline();
  receiver = await startReceiver();
});
const cleanup: (() => void)[] = [];
afterAll(async () => {
  cleanup.forEach((fn) => fn());
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
  p.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: endpointId } });

describe('a worker killed during an attempt', () => {
  it('the delivery is retried by another worker with the same event and delivery id', async () => {
    let calls = 0;
    receiver.respond = (req, res) => {
      if (req.path !== '/crash') return res.writeHead(200).end();
      calls++;
      if (calls === 1) return; // hang: the worker is killed while it waits
      res.writeHead(200).end('second time lucky');
    };
    const endpoint = await p.addEndpoint(`${receiver.url}/crash`);
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    // One process (node --import tsx), so that SIGKILL really ends the worker mid-attempt.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fixtures/worker-child.ts', import.meta.url))],
      {
        cwd: root,
        env: {
          ...process.env,
          TEST_DATABASE_URL: p.db.url,
          TEST_SECRET_KEY: p.secretKey,
          TEST_REDIS_HOST: p.redis.connection.host,
          TEST_REDIS_PORT: String(p.redis.connection.port),
          TEST_REDIS_PASSWORD: (p.redis.connection as { password?: string }).password ?? '',
          TEST_REDIS_PREFIX: p.redis.prefix,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    cleanup.push(() => child.kill('SIGKILL')); // never leave it running if the test fails early
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 300)); // the child's worker connects
    const eventId = await emit();
    await relay();
    await until(async () => receiver.received.some((r) => r.path === '/crash'), 20_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    p.startWorker({ lockDurationMs: 1000, stalledIntervalMs: 500 });
    const delivery = await deliveryOf(endpoint.id);
    await until(
      async () =>
        (await p.db.prisma.webhookDelivery.findUnique({ where: { id: delivery.id } }))?.status === 'succeeded',
      20_000,
    );
    const got = receiver.received.filter((r) => r.path === '/crash');
    expect(got).toHaveLength(2);
    expect(got.map((r) => JSON.parse(r.raw.toString()).id)).toEqual([eventId, eventId]);
    expect(got.map((r) => r.headers['x-service-delivery'])).toEqual([delivery.id, delivery.id]);
  }, 60_000);
});
