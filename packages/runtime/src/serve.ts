import type { FastifyInstance } from 'fastify';
import { createPrisma, type Environment, type PrismaClient, type Service } from '@platform/db';
import { createJobQueue, type JobQueue, type ServiceDescriptor } from '@platform/service';
import { Redis } from 'ioredis';
import type { ApiDeprecation, RateLimitSettings, ReadinessCheck, RequestSample } from '@platform/service';
import type { Sandbox } from '@platform/sandbox';
import type { BlobStorage } from '@platform/storage';
import {
  SecretBox,
  createDeliveryQueue,
  deliveryDispatcher,
  headerNames,
  startDeliveryWorker,
  startRelay,
  type HeaderNames,
  type WebhookInfrastructure,
} from '@platform/webhooks';
import { ConfigError, loadConfig, type Config, type ServiceSettingsSpec } from './config.js';
import { DatabaseUnavailableError, openDatabase, type ResolvedDatabase } from './database.js';
import { openRedis, RedisUnavailableError } from './redis.js';
import { jobsOf, startScheduledJobs } from './jobs.js';
import { ProcessMetrics, startMetricsServer } from './metrics.js';
import { classifiedFault, FaultLog } from './fault-log.js';
import { logError, processLogger } from './process-log.js';
import { watchRedis } from './redis-monitor.js';
import { exitGracefully } from './graceful-exit.js';
import { runShutdownSteps, type ShutdownStep } from './shutdown.js';
import { exitOnPortProblem, listenOrExit } from './startup-errors.js';
import { checkPortsOrExit } from './port-check.js';
import { openStorage } from './storage.js';
import { openSandbox, openUploadSandbox } from './sandbox.js';
import { checkSharedSecretsOrExit, sharedSecretsOf } from './secret-fingerprints.js';

/**
 * How long a graceful shutdown may take before the process exits anyway: longer than a request
 * may take (the 30 s request timeout) plus a delivery attempt (5 s), so that none is cut off.
 */
export const SHUTDOWN_GRACE_MS = 40_000;

export interface ServiceDeps {
  db: PrismaClient;
  environment: Environment;
  pepper: string;
  logLevel: string;
  trustProxy: boolean;
  webhooks: WebhookInfrastructure;
  /** Blob storage of uploaded files, shared by both services. */
  storage: BlobStorage;
  /** Where uploads are decoded (this process's pool of sandbox children). */
  sandbox: Sandbox;
  decodeTimeoutMs: number;
  /** The worker's queue (documents are generated there). */
  jobs: JobQueue;
  /** Where integrators reach this service. */
  publicBaseUrl: string;
  /** Where integrators reach its production and sandbox deployments (the documents' `servers`). */
  publicBaseUrls: { production?: string; sandbox?: string };
  /** The other services this process knows: a key of one of them is refused with its name. */
  neighbours: readonly ServiceDescriptor[];
  /** The service's own settings (its descriptor's `settings`), validated at start-up. */
  settings: Record<string, number>;
  /** The service's own directories (its descriptor's directory settings), absolute. */
  directories: Record<string, string>;
  maxEventLoopDelayMs: number;
  rateLimit: RateLimitSettings;
  /** Active API keys an application may have. */
  apiKeysPerApplication: number;
  deprecations: readonly ApiDeprecation[];
  /** Redis and storage, checked by `/health/ready` besides the database. */
  readiness: Record<string, ReadinessCheck>;
  observeRequest: (sample: RequestSample) => void;
  onKeyLookup: (result: 'hit' | 'miss') => void;
  /** Where this process keeps its local state (DATA_DIR). */
  dataDir: string;
}

/** A service that `serve` can start: what it is, and how its app is built. */
export interface ServiceEntry {
  descriptor: ServiceDescriptor;
  build: (deps: ServiceDeps) => Promise<FastifyInstance>;
}

/** Delivery headers of each service, for a worker that delivers the events of several. */
export function headersOf(
  services: readonly Pick<ServiceDescriptor, 'id' | 'webhookHeaderPrefix'>[],
): (service: Service) => HeaderNames {
  return (id) => {
    const service = services.find((s) => s.id === id);
    if (!service) throw new Error(`No descriptor for service ${id}: this worker cannot deliver its events.`);
    return headerNames(service.webhookHeaderPrefix);
  };
}

/** Loads the configuration (with the services' ports and settings) or exits with every problem listed. */
export function configOrExit(services: readonly ServiceSettingsSpec[] = []): Config {
  try {
    return loadConfig(process.env, process.cwd(), services);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export interface ServeOptions {
  /** The services to run, each on its port. */
  listen?: readonly ServiceEntry[];
  /** Run the webhook relay, the delivery worker and the scheduled jobs of these services. */
  worker?: readonly ServiceDescriptor[];
}

/**
 * Starts services (and, with `worker`, the webhook relay and delivery worker) on one database
 * (migrated first) and one Redis, and closes everything gracefully on SIGINT/SIGTERM: stop
 * accepting, finish in-flight requests and attempts, then close queues and connections.
 */
export async function serve({ listen: entries = [], worker: workerServices }: ServeOptions): Promise<void> {
  const known = [
    ...new Map([...entries.map((e) => e.descriptor), ...(workerServices ?? [])].map((d) => [d.id, d])).values(),
  ];
  const config = configOrExit(known);
  // Before anything starts (initdb, migrations, Redis, the worker): every taken port at once.
  await checkPortsOrExit(
    config,
    entries.map(({ descriptor }) => ({
      port: config.services[descriptor.id]!.port,
      variable: descriptor.port.variable,
    })),
  );
  const logger = processLogger(config.logLevel);
  const log = (line: string) => logger.info(line);
  // First of the listens: a port taken since the check still stops the start before a database or Redis is started.
  const metrics = new ProcessMetrics();
  const metricsServer =
    config.metricsPort > 0
      ? await startMetricsServer(metrics, config.host, config.metricsPort).catch(
          exitOnPortProblem(config.host, config.metricsPort, 'METRICS_PORT'),
        )
      : undefined;
  let database: ResolvedDatabase;
  try {
    database = await openDatabase(config, { log });
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let redis;
  try {
    redis = await openRedis(config, log);
  } catch (error) {
    if (error instanceof RedisUnavailableError) {
      console.error(error.message);
      await database.close();
      process.exit(1);
    }
    throw error;
  }
  const db = createPrisma({ url: database.url, ...database.pool });
  // Before anything listens or works: every instance must sign and encrypt with the same secrets.
  await checkSharedSecretsOrExit(db, sharedSecretsOf(config), async () => {
    await db.$disconnect();
    await redis.close();
    await database.close();
  });
  // Every service this process serves or works for (a worker alone too): its start check first.
  for (const { id, startCheck } of known) {
    const { settings, directories } = config.services[id]!;
    const refusal = await startCheck?.({ db, now: () => new Date(), dataDir: config.dataDir, settings, directories });
    if (!refusal) continue;
    console.error(refusal);
    await db.$disconnect();
    await redis.close();
    await database.close();
    process.exit(1);
  }
  const webhooks: WebhookInfrastructure = {
    queue: createDeliveryQueue(redis.connection),
    secrets: new SecretBox(config.webhookSecretKey),
    policy: { allowPrivateTargets: config.webhookAllowPrivateTargets, sandbox: config.environment === 'sandbox' },
    maxEndpointsPerAccount: config.webhookMaxEndpoints,
  };
  const storage = openStorage(config);
  // Uploads are decoded in one pool, documents rendered in another: neither waits for the other.
  const childTrouble = (line: string) => logger.warn(line);
  const uploadSandbox =
    entries.length > 0
      ? openUploadSandbox(config, { onTask: metrics.observeSandboxTask('uploads'), onChildTrouble: childTrouble })
      : undefined;
  const documentSandbox = workerServices
    ? openSandbox(config, { onTask: metrics.observeSandboxTask('documents'), onChildTrouble: childTrouble })
    : undefined;
  const jobQueue = createJobQueue(redis.connection);
  // The limiter's and the readiness probe's own connection: no offline queue and short timeouts,
  // so that while Redis is away a request waits for nothing (BullMQ's connection retries forever).
  const quickRedis = new Redis({
    ...redis.connection,
    enableOfflineQueue: false,
    connectTimeout: 1_000,
    commandTimeout: 500,
    maxRetriesPerRequest: 1,
  });
  quickRedis.on('error', () => {}); // reported by the limiter and /health/ready
  const redisWatch = watchRedis(redis.connection, logger);
  // Errors of the background work: a fault repeating many times a second is one line per 10 s,
  // and while Redis is away its connection errors are the outage already told.
  const faults = new FaultLog(logger);
  const backgroundError = (message: string) => (error: unknown) => {
    if (redisWatch.isDown() && classifiedFault(error)) return;
    faults.error(error, message);
  };
  webhooks.queue.on('error', backgroundError('webhook queue error'));
  jobQueue.queue.on('error', backgroundError('job queue error'));
  const apps: FastifyInstance[] = [];
  const stoppers: ShutdownStep[] = [];
  exitGracefully({
    graceMs: SHUTDOWN_GRACE_MS,
    log,
    onError: (error, message) => logError(logger, error, message),
    shutdown: async ({ signal }) => {
      log(`shutting down (${signal ?? 'error'}): finishing in-flight requests and delivery attempts`);
      const steps: ShutdownStep[] = [
        ...apps.map((app, i): ShutdownStep => [`service ${i + 1}`, () => app.close()]),
        ...stoppers,
        ['upload sandbox', async () => uploadSandbox?.close()],
        ['document sandbox', async () => documentSandbox?.close()],
        ['webhook queue', () => webhooks.queue.close()],
        ['job queue', () => jobQueue.close()],
        [
          'metrics',
          () => new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve())),
        ],
        ['quick redis connection', async () => void quickRedis.disconnect()],
        ['redis monitor', async () => redisWatch.close()],
        ['database client', () => db.$disconnect()],
        ['redis', () => redis.close()],
        ['database', () => database.close()],
      ];
      await runShutdownSteps(
        steps,
        (name, error) => logError(logger, error, `shutdown: closing the ${name} failed; going on with the rest`),
        (name) => logger.debug(`shutdown: ${name} closed`),
      );
      log('shut down');
    },
  });
  if (workerServices) {
    const now = () => new Date();
    const smtp = config.smtpUrl ? { url: config.smtpUrl, from: config.smtpFrom } : undefined;
    const relay = startRelay(
      { db, queue: webhooks.queue, now },
      { onError: backgroundError('relay error'), alerts: { smtp, log } },
    );
    const worker = startDeliveryWorker(
      {
        db,
        secrets: webhooks.secrets,
        headersFor: headersOf(workerServices),
        now,
        dispatcher: deliveryDispatcher(webhooks.policy),
        onAttempt: metrics.observeDelivery,
      },
      { connection: redis.connection, onJobError: backgroundError('delivery job error') },
    );
    worker.on('error', backgroundError('delivery worker error'));
    stoppers.push(['relay', () => relay.stop()], ['delivery worker', () => worker.close()]);
    log('webhook relay and delivery worker running');
    const jobs = jobsOf(workerServices, { smtp });
    const scheduled = startScheduledJobs(
      { db, storage, sandbox: documentSandbox!, secrets: webhooks.secrets, targets: webhooks.policy },
      redis.connection,
      jobs,
      logger,
      metrics.jobFailed,
      backgroundError('job worker error'),
    );
    metrics.watchQueue('webhook-deliveries', webhooks.queue);
    metrics.watchQueue('jobs', jobQueue.queue);
    await scheduled.ready;
    stoppers.push(['scheduled jobs', () => scheduled.stop()]);
    const schedules = jobs.flatMap((j) => (j.schedule ? [`${j.name} (${j.schedule.pattern}, ${j.schedule.tz})`] : []));
    log(`scheduled jobs: ${schedules.join(', ')}`);
  }
  for (const { descriptor, build } of entries) {
    const { port, settings, directories, publicBaseUrl, publicBaseUrls } = config.services[descriptor.id]!;
    const neighbours = known.filter((other) => other.id !== descriptor.id);
    const app = await build({
      db,
      environment: config.environment,
      pepper: config.apiKeyPepper,
      logLevel: config.logLevel,
      trustProxy: config.trustProxy,
      webhooks,
      storage,
      sandbox: uploadSandbox!,
      decodeTimeoutMs: config.sandbox.decodeSeconds * 1000,
      jobs: jobQueue,
      publicBaseUrl,
      publicBaseUrls,
      neighbours,
      settings,
      directories,
      maxEventLoopDelayMs: config.maxEventLoopDelayMs,
      rateLimit: { redis: quickRedis, perMinute: config.rateLimitPerMinute, warn: (line) => logger.warn(line) },
      apiKeysPerApplication: config.apiKeysPerApplication,
      deprecations: config.deprecations,
      readiness: { redis: () => quickRedis.ping(), storage: () => storage.exists('0'.repeat(64)) },
      observeRequest: metrics.observeRequest,
      onKeyLookup: metrics.keyLookup(descriptor.id),
      dataDir: config.dataDir,
    });
    apps.push(app);
    await listenOrExit(app, { host: config.host, port }, descriptor.port.variable);
    // The one line of this service (Fastify's own, one per address, are not written).
    app.log.info(`${descriptor.names.en} listening on http://${config.host}:${port} (docs: /v1/docs)`);
  }
}
