import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { createPrisma, type Environment, type PrismaClient } from '@platform/db';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './database.js';

export interface ServiceDeps {
  db: PrismaClient;
  environment: Environment;
  pepper: string;
  logLevel: string;
  trustProxy: boolean;
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

/**
 * Starts services on one database (migrated first) and closes everything gracefully on
 * SIGINT/SIGTERM: stop accepting, finish in-flight requests, then close the database.
 */
export async function serve(entries: ServiceEntry[]): Promise<void> {
  const config = configOrExit();
  const log = (line: string) => console.log(JSON.stringify({ level: 30, time: Date.now(), msg: line }));
  const database = await openDatabase(config, { log });
  const db = createPrisma({ url: database.url });
  const apps: FastifyInstance[] = [];
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) console.error(err);
    log(`shutting down (${signal ?? 'error'}): finishing in-flight requests`);
    for (const app of apps) await app.close();
    await db.$disconnect();
    await database.close();
  });
  for (const entry of entries) {
    const app = await entry.build({
      db,
      environment: config.environment,
      pepper: config.apiKeyPepper,
      logLevel: config.logLevel,
      trustProxy: config.trustProxy,
    });
    apps.push(app);
    await app.listen({ host: config.host, port: entry.port(config) });
    app.log.info(`${entry.name} listening on http://${config.host}:${entry.port(config)} (docs: /v1/docs)`);
  }
}
