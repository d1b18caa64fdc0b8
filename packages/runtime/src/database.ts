import { createConnection } from 'node:net';
import { join } from 'node:path';
import { runMigrations, startEmbeddedPostgres } from '@platform/db';
import type { Config } from './config.js';

export interface ResolvedDatabase {
  url: string;
  /** Stops the embedded server if this process started it. */
  close(): Promise<void>;
}

const DATABASE = 'platform';

function isListening(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.end();
      resolvePromise(true);
    });
    socket.once('error', () => resolvePromise(false));
  });
}

/**
 * The database of `pnpm start` and `pnpm cli`: `DATABASE_URL` when set, else the embedded
 * PostgreSQL under DATA_DIR (reused when `pnpm start` already runs it). Migrations run first.
 */
export async function openDatabase(config: Config, options: { migrate?: boolean; log?: (line: string) => void } = {}): Promise<ResolvedDatabase> {
  let url = config.databaseUrl;
  let close = async () => {};
  if (!url) {
    const port = config.embeddedPostgresPort;
    const embeddedUrl = `postgresql://postgres:postgres@127.0.0.1:${port}`;
    if (!(await isListening(port))) {
      // serve() stops it last, after in-flight requests and delivery attempts have finished.
      const server = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'postgres'), port, persistent: true, stopOnSignals: false });
      close = () => server.stop();
      options.log?.(`embedded PostgreSQL started on port ${port} (data in ${join(config.dataDir, 'postgres')})`);
    }
    await ensureDatabase(`${embeddedUrl}/postgres`, DATABASE);
    url = `${embeddedUrl}/${DATABASE}`;
  }
  if (options.migrate !== false) {
    const applied = await runMigrations(url);
    if (applied.length > 0) options.log?.(`applied migrations: ${applied.join(', ')}`);
  }
  return { url, close };
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}
