import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { createPrisma, type Environment, type PrismaClient } from '@platform/db';
import {
  SecretBox,
  createDeliveryQueue,
  deliveryDispatcher,
  headersForService,
  startDeliveryWorker,
  startRelay,
  type WebhookInfrastructure,
} from '@platform/webhooks';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './database.js';
import { openRedis, RedisUnavailableError } from './redis.js';
import { WEBHOOK_HISTORY_JOB, startScheduledJobs, type ScheduledJob } from './jobs.js';

export interface ServiceDeps {
  db: PrismaClient;
  environment: Environment;
  pepper: string;
  logLevel: string;
  trustProxy: boolean;
  webhooks: WebhookInfrastructure;
  /** The whole configuration, for settings of one service only. */
  config: Config;
}

export interface ServiceEntry {
  name: string;
  port: (config: Config) => number;
  build: (deps: ServiceDeps) => Promise<FastifyInstance>;
}

/** Loads the configuration or exits with every problem listed. */
export function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const log = (line: string) => console.log(JSON.stringify({ level: 30, time: Date.now(), msg: line }));

/**
 * Starts services (and, with `worker`, the webhook relay and delivery worker) on one database
 * (migrated first) and one Redis, and closes everything gracefully on SIGINT/SIGTERM: stop
 * accepting, finish in-flight requests and attempts, then close queues and connections.
 */
export async function serve(entries: ServiceEntry[], options: { worker?: boolean; jobs?: readonly ScheduledJob[] } = {}): Promise<void> {
  const config = configOrExit();
  const database = await openDatabase(config, { log });
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
  const db = createPrisma({ url: database.url });
  const webhooks: WebhookInfrastructure = {
    queue: createDeliveryQueue(redis.connection),
    secrets: new SecretBox(config.webhookSecretKey),
    policy: { allowPrivateTargets: config.webhookAllowPrivateTargets },
  };
  const apps: FastifyInstance[] = [];
  const stoppers: (() => Promise<unknown>)[] = [];
  closeWithGrace({ delay: 15_000 }, async ({ err, signal }) => {
    if (err) console.error(err);
    log(`shutting down (${signal ?? 'error'}): finishing in-flight requests and delivery attempts`);
    for (const app of apps) await app.close();
    for (const stop of stoppers) await stop();
    await webhooks.queue.close();
    await db.$disconnect();
    await redis.close();
    await database.close();
  });
  if (options.worker) {
    const now = () => new Date();
    const relay = startRelay({ db, queue: webhooks.queue, now }, { onError: (error) => log(`relay error: ${String(error)}`) });
    const worker = startDeliveryWorker(
      { db, secrets: webhooks.secrets, headersFor: headersForService, now, dispatcher: deliveryDispatcher(webhooks.policy) },
      { connection: redis.connection },
    );
    worker.on('error', (error) => log(`delivery worker error: ${String(error)}`));
    stoppers.push(() => relay.stop(), () => worker.close());
    log('webhook relay and delivery worker running');
    const jobs = [...(options.jobs ?? []), WEBHOOK_HISTORY_JOB];
    const scheduled = startScheduledJobs(db, redis.connection, jobs, log);
    await scheduled.ready;
    stoppers.push(() => scheduled.stop());
    log(`scheduled jobs: ${jobs.map((j) => `${j.name} (${j.pattern}, ${j.tz})`).join(', ')}`);
  }
  for (const entry of entries) {
    const app = await entry.build({ db, environment: config.environment, pepper: config.apiKeyPepper, logLevel: config.logLevel, trustProxy: config.trustProxy, webhooks, config });
    apps.push(app);
    await app.listen({ host: config.host, port: entry.port(config) });
    app.log.info(`${entry.name} listening on http://${config.host}:${entry.port(config)} (docs: /v1/docs)`);
  }
}
