import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Queue } from 'bullmq';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createJobQueue, startJobWorker, type JobQueue, type ServiceDescriptor } from '@platform/service';
import {
  SecretBox,
  createDeliveryQueue,
  deliveryDispatcher,
  headerNames,
  startDeliveryWorker,
  startRelay,
  type DeliveryJob,
  type WebhookInfrastructure,
} from '@platform/webhooks';
import { createFilesystemStorage, type BlobStorage } from '@platform/storage';
import type { Sandbox } from '@platform/sandbox';
import { testRedis } from './redis.js';
import { testSandbox } from './sandbox.js';
import type { PrismaClient } from '@platform/db';
import { createTestDatabase, type TestDatabase } from './database.js';
import { createTenant, TEST_PEPPER, type Tenant } from './fixtures.js';
import { LogCapture } from './log-capture.js';
import { rememberPersonalValues } from './run-log.js';

export interface AppBuildDeps {
  db: PrismaClient;
  webhooks: WebhookInfrastructure;
  environment: 'sandbox';
  pepper: string;
  logLevel: string;
  logStream: LogCapture;
  now: () => Date;
  keyCacheTtlMs?: number;
  storage: BlobStorage;
  /** The sandbox uploads are decoded in (the deployment's entry, run from source). */
  sandbox: Sandbox;
  jobs: JobQueue;
  publicBaseUrl: string;
  publicBaseUrls: { production?: string; sandbox?: string };
  maxEventLoopDelayMs: number;
}

/** The base URL test apps put into events and documents. */
export const TEST_PUBLIC_BASE_URL = 'https://api.example.test';

export interface TestApp {
  db: TestDatabase;
  /** The app's webhook queue (its own Redis prefix) and secret box. */
  webhooks: WebhookInfrastructure & { queue: Queue<DeliveryJob> };
  app: FastifyInstance;
  logs: LogCapture;
  /** Two tenants holding every scope of the service. */
  tenant: Tenant;
  other: Tenant;
  /** The app's blob storage: the filesystem driver in a temporary directory (`blobRoot`), removed on close. */
  storage: BlobStorage;
  blobRoot: string;
  /** The sandbox of the app's uploads and of its job worker's documents. */
  sandbox: Sandbox;
  /** The app's clock; tests move it by assigning `clock.now`. */
  clock: { now: Date };
  /** The app's job queue (its own Redis prefix). */
  jobs: ReturnType<typeof createJobQueue>;
  /** Runs a worker for the service's jobs (as the worker process does); resolves to its stop function. */
  startJobWorker(): Promise<() => Promise<void>>;
  /** Runs the outbox relay and a delivery worker for this app; resolves to their stop function. */
  startWebhookDelivery(): Promise<() => Promise<void>>;
  /** Calls the app with a key (the tenant's by default) and, if given, a JSON body. */
  send(method: string, url: string, payload?: unknown, key?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Builds an app on a database of its own with captured logs, an adjustable clock and a webhook queue of its own. */
export async function startTestApp(
  service: ServiceDescriptor,
  build: (deps: AppBuildDeps) => Promise<FastifyInstance>,
  options: { allowPrivateTargets?: boolean; sandbox?: Sandbox } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const logs = new LogCapture();
  const clock = { now: new Date() };
  const redis = testRedis();
  const webhooks = {
    queue: createDeliveryQueue(redis.connection, redis.prefix),
    secrets: new SecretBox(randomBytes(32).toString('hex')),
    policy: { allowPrivateTargets: options.allowPrivateTargets ?? true },
  };
  const jobs = createJobQueue(redis.connection, redis.prefix);
  const blobRoot = await mkdtemp(join(tmpdir(), 'blobs-'));
  const storage = createFilesystemStorage({ root: blobRoot });
  const sandbox = options.sandbox ?? testSandbox();
  const app = await build({
    db: db.prisma,
    webhooks,
    environment: 'sandbox',
    pepper: TEST_PEPPER,
    logLevel: 'info',
    logStream: logs,
    now: () => clock.now,
    storage,
    sandbox,
    jobs,
    publicBaseUrl: TEST_PUBLIC_BASE_URL,
    publicBaseUrls: { production: 'https://api.live.example.test', sandbox: TEST_PUBLIC_BASE_URL },
    // Many test files run at once on a busy machine: the overload guard is tested on its own.
    maxEventLoopDelayMs: 0,
  });
  await app.ready();
  const tenant = await createTenant(db.prisma, { service });
  const other = await createTenant(db.prisma, { service });
  return {
    db,
    webhooks,
    app,
    logs,
    tenant,
    other,
    storage,
    blobRoot,
    sandbox,
    clock,
    jobs,
    startJobWorker: async () => {
      const context = () => ({
        db: db.prisma,
        now: clock.now,
        storage,
        sandbox,
        jobs,
        secrets: webhooks.secrets,
        targets: webhooks.policy,
      });
      const worker = startJobWorker(service.jobs, context, {
        connection: redis.connection,
        prefix: redis.prefix,
      });
      await worker.waitUntilReady();
      return () => worker.close();
    },
    startWebhookDelivery: async () => {
      const now = () => new Date();
      const relay = startRelay({ db: db.prisma, queue: webhooks.queue, now }, { intervalMs: 20 });
      const worker = startDeliveryWorker(
        {
          db: db.prisma,
          secrets: webhooks.secrets,
          headersFor: () => headerNames(service.webhookHeaderPrefix),
          now,
          dispatcher: deliveryDispatcher(webhooks.policy),
        },
        { connection: redis.connection, prefix: redis.prefix },
      );
      return async () => {
        await relay.stop();
        await worker.close();
      };
    },
    send: (method, url, payload, key = tenant.key) => (
      rememberPersonalValues(payload),
      app.inject({
        method: method as 'GET',
        url,
        headers: { apikey: key },
        ...(payload === undefined ? {} : { payload: payload as object }),
      })
    ),
    close: async () => {
      await app.close();
      await sandbox.close();
      await webhooks.queue.obliterate({ force: true });
      await webhooks.queue.close();
      await jobs.queue.obliterate({ force: true });
      await jobs.close();
      await db.drop();
      await rm(blobRoot, { recursive: true, force: true });
    },
  };
}
