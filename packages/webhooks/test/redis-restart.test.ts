// Delayed retries live only in Redis: with AOF (appendfsync always) they survive a restart of a
// real redis-server. A delivery fails once, its retry waits as a delayed job, Redis is shut down
// and started again on the same directory, and the retry is delivered.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startReceiver, until } from '@platform/testkit';
import { recordEvent } from '../src/outbox.js';
import { createDeliveryQueue, type DeliveryJob } from '../src/queue.js';
import { relayOnce } from '../src/relay.js';
import { startDeliveryWorker } from '../src/worker.js';
import { startPipeline } from './pipeline.js';

const RETRY_MS = 1500;
let p: Awaited<ReturnType<typeof startPipeline>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let dir: string;
let port: number;
const password = randomBytes(24).toString('base64url');
let redis: ChildProcess | undefined;
let queue: Queue<DeliveryJob> | undefined;
let worker: Worker<DeliveryJob> | undefined;

const connection = () => ({ host: '127.0.0.1', port, password, maxRetriesPerRequest: null });

/** A redis-server of this test's own on `dir` (AOF, fsync on every write); the config goes over stdin. */
async function startRedis(): Promise<void> {
  const child = spawn('redis-server', ['-'], { stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin!.on('error', () => {});
  child.stdin!.end(
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `requirepass ${password}`,
      `dir "${dir}"`,
      'save ""',
      'appendonly yes',
      'appendfsync always',
      'maxmemory-policy noeviction',
    ].join('\n') + '\n',
  );
  redis = child;
  await until(async () => {
    const client = new Redis({ ...connection(), lazyConnect: true, retryStrategy: () => null });
    client.on('error', () => {}); // not up yet
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  });
}

/** SHUTDOWN as an operator would: Redis flushes the AOF and exits. */
async function shutdownRedis(): Promise<void> {
  const child = redis!;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const client = new Redis({ ...connection(), retryStrategy: () => null });
  client.on('error', () => {});
  await client.call('SHUTDOWN').catch(() => undefined); // the connection closes as the server exits
  client.disconnect();
  await exited;
  redis = undefined;
}

async function startDelivery(): Promise<void> {
  queue = createDeliveryQueue(connection(), 'aof');
  worker = startDeliveryWorker(
    { ...p.deps, now: () => new Date(), retryDelaysMs: [RETRY_MS] },
    { connection: connection(), prefix: 'aof' },
  );
}

async function stopDelivery(): Promise<void> {
  await worker?.close();
  await queue?.close();
  worker = undefined;
  queue = undefined;
}

beforeAll(async () => {
  p = await startPipeline();
  let calls = 0;
  receiver = await startReceiver((_req, res) =>
    ++calls === 1 ? res.writeHead(503).end('later') : res.writeHead(200).end('ok'),
  );
  dir = mkdtempSync(join(tmpdir(), 'webhooks-aof-'));
  port = await freePort();
  await startRedis();
});
afterAll(async () => {
  await stopDelivery();
  if (redis) await shutdownRedis().catch(() => redis?.kill('SIGKILL'));
  await receiver.close();
  await p.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a delayed retry across a Redis restart (AOF)', () => {
  it('is delivered after redis-server was shut down and started again on the same data', async () => {
    await startDelivery();
    const endpoint = await p.addEndpoint(`${receiver.url}/aof`);
    const eventId = await p.db.prisma.$transaction((tx) =>
      recordEvent(tx, {
        accountId: p.tenant.accountId,
        service: 'property',
        type: 'property.created',
        data: { property_id: 'prop_1' },
        now: new Date(),
      }),
    );
    await relayOnce({ db: p.db.prisma, queue: queue!, now: () => new Date() });
    const delivery = await p.db.prisma.webhookDelivery.findFirstOrThrow({
      where: { event_id: eventId, endpoint_id: endpoint.id },
    });
    await until(async () => (await queue!.getJobState(delivery.id)) === 'delayed'); // failed once; the retry waits in Redis
    expect((await queue!.getJob(delivery.id))!.attemptsMade).toBe(1);

    await stopDelivery();
    await shutdownRedis();
    await startRedis(); // same port, same directory: the AOF is replayed
    await startDelivery();
    expect(await queue!.getJobState(delivery.id)).toMatch(/^(delayed|waiting|active|completed)$/); // it survived

    const done = await until(async () => {
      const d = await p.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
      return d.status === 'succeeded' ? d : undefined;
    }, 15_000);
    expect(done.attempt_count).toBe(2);
    const got = receiver.received.filter((r) => r.path === '/aof');
    expect(got).toHaveLength(2);
    expect(got.map((r) => r.headers['x-service-delivery'])).toEqual([delivery.id, delivery.id]);
    expect(got.map((r) => JSON.parse(r.raw.toString()).id)).toEqual([eventId, eventId]);
  }, 60_000);
});
