// What the database benchmarks share: a private embedded PostgreSQL with the schema, percentiles, and
// the stack the service benchmarks run against (database, redis-server, storage, queues, the app, a key).
import { DEFAULT_SANDBOX, openSandbox } from '@platform/runtime';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey, type KeyOwner } from '@platform/auth';
import { createPrisma, runMigrations, startEmbeddedPostgres, type EmbeddedDatabase } from '@platform/db';
import { createJobQueue, type ServiceAppDeps } from '@platform/service';
import { createFilesystemStorage } from '@platform/storage';
import { SecretBox, createDeliveryQueue } from '@platform/webhooks';

/**
 * A migrated embedded PostgreSQL on `port` whose data dir is a fresh mkdtemp dir under tmpdir()
 * (the dir itself, so that the unprivileged postgres user can reach it), and a Prisma client on it
 * as the superuser; `close` disconnects, stops the server and removes the dir.
 */
export async function startMigratedDatabase(
  name: string,
  options: { port: number; durable?: boolean; maxConnections?: number },
) {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  let pg: EmbeddedDatabase | undefined;
  try {
    pg = await startEmbeddedPostgres({ dataDir: dir, port: options.port, persistent: false, durable: options.durable });
    await runMigrations(pg.adminUrl);
  } catch (error) {
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const server = pg;
  const db = createPrisma({ url: server.adminUrl, maxConnections: options.maxConnections });
  return {
    db,
    pg: server,
    dataDir: dir,
    async close() {
      await db.$disconnect();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A migrated embedded PostgreSQL (fsync on, as in production) with the bench account(s); `close` removes it. */
export async function startBenchDatabase(name: string, accounts: string[] = ['acct_bench']) {
  const { db, close } = await startMigratedDatabase(name, { port: 25_000 + Math.floor(Math.random() * 5_000) });
  try {
    for (const id of accounts) await db.account.create({ data: { id, name: id } });
  } catch (error) {
    await close();
    throw error;
  }
  return { db, close };
}

/** p50, p95 and max in ms of the timings after the first `warmUp` runs. */
export function percentiles(times: number[], warmUp = 5) {
  const sorted = times.slice(warmUp).sort((a, b) => a - b);
  const pct = (p: number) =>
    Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1));
  return { p50_ms: pct(50), p95_ms: pct(95), max_ms: pct(100) };
}

export interface ServiceStackOptions<App extends ServiceApp> {
  /** Names the temp dirs (bench-<name>-…). */
  name: string;
  /** The service the application and the key belong to (its descriptor). */
  service: Pick<KeyOwner, 'id' | 'keyPrefix' | 'scopes'>;
  /** Builds the app from the stack's dependencies (buildPropertyApp, buildAgentPlatformApp). */
  build: (deps: ServiceAppDeps) => Promise<App>;
  /** Scopes of the API key. */
  scopes: string[];
  /** Connections of the Prisma client of this process (default 20). */
  maxConnections?: number;
}

/** What the stack needs of a built app (a Fastify instance). */
export interface ServiceApp {
  listen(options: { port: number; host: string }): Promise<unknown>;
  close(): PromiseLike<unknown>;
  server: Pick<Server, 'address'>;
}

/**
 * An embedded PostgreSQL (fsync off) with the schema, a private redis-server, and the app (webhooks,
 * filesystem storage, job queue) on a random loopback port, with the account `acct_bench`, the
 * application `app_bench` of the service and an API key of the given scopes. `close` stops it in
 * reverse order and removes the temp dirs (the benchmark stops its own processes first).
 */
export async function startServiceStack<App extends ServiceApp>({
  name,
  service,
  build,
  scopes,
  maxConnections = 20,
}: ServiceStackOptions<App>) {
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
    const webhooks = {
      queue: createDeliveryQueue(connection),
      secrets: new SecretBox(secretKey),
      policy: { allowPrivateTargets: true },
    };
    cleanups.push(() => webhooks.queue.close());
    const pepper = randomBytes(32).toString('hex');
    const storageRoot = mkdtempSync(join(tmpdir(), `bench-${name}-blobs-`));
    cleanups.push(() => rmSync(storageRoot, { recursive: true, force: true }));
    const storage = createFilesystemStorage({ root: storageRoot });
    const jobs = createJobQueue(connection);
    cleanups.push(() => jobs.close());

    const sandbox = openSandbox({ sandbox: DEFAULT_SANDBOX });
    cleanups.push(() => sandbox.close());
    const app = await build({
      db,
      environment: 'sandbox',
      pepper,
      logLevel: 'warn',
      webhooks,
      storage,
      sandbox,
      jobs,
      publicBaseUrl: 'http://localhost',
    });
    cleanups.push(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const accountId = 'acct_bench';
    const applicationId = 'app_bench';
    await db.account.create({ data: { id: accountId, name: 'bench' } });
    await db.application.create({
      data: { id: applicationId, account_id: accountId, service: service.id, name: 'bench' },
    });
    const { plaintext: key } = await createApiKey(db, {
      applicationId,
      service,
      environment: 'sandbox',
      scopes,
      pepper,
    });

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
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
    { stdio: 'ignore' },
  );
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

/** SIGTERM, then SIGKILL after 5 s; resolves when the process has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
