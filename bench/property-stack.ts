// The stack the property-service benchmarks run against: an embedded PostgreSQL (fsync off) with the
// schema, a private redis-server, and the property API (webhooks, filesystem storage, job queue) on a
// random loopback port, with an account, an application and an API key of the given scopes.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '@platform/auth';
import { buildPropertyApp, propertyDescriptor } from '@platform/property-service';
import { createJobQueue } from '@platform/service';
import { createFilesystemStorage } from '@platform/storage';
import { SecretBox, createDeliveryQueue } from '@platform/webhooks';
import { startMigratedDatabase } from './support.js';

export interface PropertyStackOptions {
  /** Names the temp dirs (bench-<name>-…). */
  name: string;
  /** Scopes of the API key. */
  scopes: string[];
  /** Connections of the Prisma client of this process (default 20). */
  maxConnections?: number;
}

export type PropertyStack = Awaited<ReturnType<typeof startPropertyStack>>;

/** Starts the stack; `close` stops it in reverse order and removes the temp dirs (the benchmark stops its own processes first). */
export async function startPropertyStack({ name, scopes, maxConnections = 20 }: PropertyStackOptions) {
  const cleanups: (() => unknown)[] = [];
  const close = async () => {
    let failure: unknown;
    for (const step of cleanups.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        failure ??= error; // the later steps still run: no server or temp dir is left behind
      }
    }
    if (failure !== undefined) throw failure;
  };
  try {
    const pgPort = 20_000 + Math.floor(Math.random() * 10_000);
    const redisPort = pgPort + 10_000;
    const database = await startMigratedDatabase(name, { port: pgPort, durable: false, maxConnections });
    cleanups.push(() => database.close());
    const { db, pg } = database;

    const redis = await startRedis(redisPort);
    cleanups.push(() => stopProcess(redis));
    const connection = { host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: null };

    const secretKey = randomBytes(32).toString('hex');
    const webhooks = { queue: createDeliveryQueue(connection), secrets: new SecretBox(secretKey), policy: { allowPrivateTargets: true } };
    cleanups.push(() => webhooks.queue.close());
    const pepper = randomBytes(32).toString('hex');
    const storageRoot = mkdtempSync(join(tmpdir(), `bench-${name}-blobs-`));
    cleanups.push(() => rmSync(storageRoot, { recursive: true, force: true }));
    const storage = createFilesystemStorage({ root: storageRoot });
    const jobs = createJobQueue(connection);
    cleanups.push(() => jobs.close());

    const app = await buildPropertyApp({ db, environment: 'sandbox', pepper, logLevel: 'warn', webhooks, storage, jobs, publicBaseUrl: 'http://localhost' });
    cleanups.push(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const accountId = 'acct_bench';
    const applicationId = 'app_bench';
    await db.account.create({ data: { id: accountId, name: 'bench' } });
    await db.application.create({ data: { id: applicationId, account_id: accountId, service: 'property', name: 'bench' } });
    const { plaintext: key } = await createApiKey(db, { applicationId, service: propertyDescriptor, environment: 'sandbox', scopes, pepper });

    return {
      db,
      /** The embedded server; `databaseUrl` is its superuser URL (for worker processes). */
      pg,
      databaseUrl: pg.adminUrl,
      redisPort,
      /** Redis connection options for job and delivery queues. */
      connection,
      webhooks,
      /** The key the SecretBox of `webhooks` was made with (for delivery workers). */
      secretKey,
      pepper,
      storage,
      storageRoot,
      jobs,
      app,
      apiUrl,
      accountId,
      applicationId,
      key,
      close,
    };
  } catch (error) {
    await close().catch((cleanupError: unknown) => console.error('cleanup:', cleanupError));
    throw error;
  }
}

/** A redis-server on `port` (no persistence, no eviction), once it answers PING. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`redis-server on port ${port} exited (${signal ?? code}).`)));
  });
  failed.catch(() => {});
  const deadline = Date.now() + 10_000;
  try {
    while (!(await Promise.race([pings(port), failed]))) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within 10 s.`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return child;
}

/** Whether a Redis server on `port` answers PING. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
