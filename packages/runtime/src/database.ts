import { lstatSync, readlinkSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import {
  EMBEDDED_SUPERUSER,
  EmbeddedPostgresBusyError,
  EmbeddedPostgresError,
  embeddedServerOf,
  embeddedUrl,
  ensureOwnedDatabase,
  runMigrations,
  startEmbeddedPostgres,
  type EmbeddedRole,
} from '@platform/db';
import { SANDBOX_SECRETS_FILE, sandboxSecret, type Config } from './config.js';
import { pooledSessionProblem } from './pooled-session.js';

export interface ResolvedDatabase {
  url: string;
  /** How the services' pool connects to `url` (createPrisma's options). */
  pool: { pooling: Config['databasePooling']; preparedStatements: boolean };
  /** Stops the embedded server if this process started it. */
  close(): Promise<void>;
}

/** The database cannot be opened; the message says why and what to do, in one line. */
export class DatabaseUnavailableError extends Error {}

const DATABASE = 'platform';

/**
 * The role the services, the CLI and the migrations use on the embedded server: it owns the
 * `platform` database and its schema, and is not a superuser.
 */
export const EMBEDDED_APP_ROLE = 'platform';

/** The embedded server's credentials, generated on first use into `DATA_DIR/sandbox-secrets.json`. */
export function embeddedPostgresCredentials(dataDir: string): { superuser: EmbeddedRole; app: EmbeddedRole } {
  return {
    superuser: { name: EMBEDDED_SUPERUSER, password: sandboxSecret(dataDir, 'embedded_postgres_superuser_password') },
    app: { name: EMBEDDED_APP_ROLE, password: sandboxSecret(dataDir, 'embedded_postgres_app_password') },
  };
}

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

async function waitUntilListening(port: number, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await isListening(port)) return true;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  }
  return false;
}

/**
 * The database of `pnpm start` and `pnpm cli`: `DATABASE_URL` when set, else the embedded
 * PostgreSQL under DATA_DIR (reused when `pnpm start` already runs it), as the application role.
 * Migrations run first.
 */
export async function openDatabase(
  config: Config,
  options: { migrate?: boolean; log?: (line: string) => void } = {},
): Promise<ResolvedDatabase> {
  if (config.databaseUrl) await checkDatabaseUrl(config.databaseUrl, 'DATABASE_URL');
  if (config.directDatabaseUrl) await checkDatabaseUrl(config.directDatabaseUrl, 'DIRECT_DATABASE_URL');
  if (config.databasePooling === 'transaction') {
    const problem = await pooledSessionProblem(config.databaseUrl!, options.log ?? (() => {}));
    if (problem) throw new DatabaseUnavailableError(problem);
  }
  const { url, close } = config.databaseUrl
    ? { url: config.databaseUrl, close: async () => {} }
    : await openEmbedded(config, options.log);
  if (options.migrate !== false) {
    try {
      // past the pooler: the runner holds a session-level advisory lock
      const applied = await runMigrations(config.directDatabaseUrl ?? url);
      if (applied.length > 0) options.log?.(`applied migrations: ${applied.join(', ')}`);
    } catch (error) {
      await close();
      throw error;
    }
  }
  return { url, close, pool: { pooling: config.databasePooling, preparedStatements: config.preparedStatements } };
}

/**
 * DATABASE_URL (or DIRECT_DATABASE_URL) must parse and lead to a database that lets its user in; each failure is one line
 * naming the fix. The URL itself is never shown: it holds a password.
 */
async function checkDatabaseUrl(url: string, variable: string): Promise<void> {
  let where: string;
  let user: string;
  let database: string;
  try {
    const parsed = new URL(url);
    user = decodeURIComponent(parsed.username);
    database = decodeURIComponent(parsed.pathname.slice(1)) || user;
    decodeURIComponent(parsed.password);
    where = `${parsed.hostname}:${parsed.port || 5432}`;
  } catch {
    throw new DatabaseUnavailableError(
      `${variable} is not a valid connection string: use postgresql://user:password@host:5432/database (percent-encode special characters in the password).`,
    );
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    const reason = (message ?? String(error)).split('\n')[0];
    if (code === '28P01')
      throw new DatabaseUnavailableError(
        `PostgreSQL at ${where} refused the password of user "${user}": fix the user or password in ${variable}.`,
      );
    if (code === '28000')
      throw new DatabaseUnavailableError(
        `PostgreSQL at ${where} does not let user "${user}" in (${reason}): fix the user in ${variable}, or allow it in that server's pg_hba.conf.`,
      );
    if (code === '3D000')
      throw new DatabaseUnavailableError(
        `The database "${database}" does not exist on PostgreSQL at ${where}: create it (createdb ${database}), or fix the database name in ${variable}.`,
      );
    const why =
      code === 'ECONNREFUSED'
        ? 'nothing listens there'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'unknown host'
          : /timeout/i.test(reason)
            ? 'no answer within 10 s'
            : reason;
    throw new DatabaseUnavailableError(
      `Could not reach PostgreSQL at ${where} (${why}): start it, or fix the host and port in ${variable}.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

async function openEmbedded(config: Config, log?: (line: string) => void): Promise<Omit<ResolvedDatabase, 'pool'>> {
  const port = config.embeddedPostgresPort;
  const dataDir = join(config.dataDir, 'postgres');
  const credentials = embeddedPostgresCredentials(config.dataDir);
  let close = async () => {};
  let started = false;
  if (!(await isListening(port))) {
    const holder = embeddedServerOf(dataDir);
    if (holder && holder.port === port) {
      // Another process (pnpm start, pnpm cli) is starting it right now.
      if (!(await waitUntilListening(port, 30_000))) {
        throw new DatabaseUnavailableError(
          `The embedded database in ${dataDir} is held by process ${holder.pid} but does not accept connections on port ${port}; stop that process and try again.`,
        );
      }
    } else {
      try {
        // serve() stops it last, after in-flight requests and delivery attempts have finished.
        const server = await startEmbeddedPostgres({
          dataDir,
          port,
          superuserPassword: credentials.superuser.password,
          roles: [credentials.app],
          persistent: true,
          stopOnSignals: false,
        });
        close = () => server.stop();
        started = true;
        // As root, when the server's OS user cannot reach DATA_DIR, the cluster lives elsewhere (clusterLocation).
        const location = lstatSync(dataDir).isSymbolicLink()
          ? `${dataDir}, a link to ${readlinkSync(dataDir)}`
          : dataDir;
        log?.(
          `embedded PostgreSQL started on 127.0.0.1:${port} (data in ${location}; passwords in ${join(config.dataDir, SANDBOX_SECRETS_FILE)})`,
        );
      } catch (error) {
        throw explain(error);
      }
    }
  }
  try {
    await ensureOwnedDatabase(embeddedUrl(port, 'postgres', credentials.superuser), DATABASE, EMBEDDED_APP_ROLE);
  } catch (error) {
    await close();
    const code = (error as { code?: string }).code;
    if (code === '28P01' || code === '28000') {
      throw new DatabaseUnavailableError(
        `The PostgreSQL on port ${port} does not accept the credentials in ${join(config.dataDir, SANDBOX_SECRETS_FILE)}: it is the database of another DATA_DIR, another server, or one started by an older version; stop the process that runs it and start again, or set EMBEDDED_PG_PORT to a free port.`,
      );
    }
    if (!started) {
      throw new DatabaseUnavailableError(
        `Port ${port} is in use, but not by the embedded database of ${config.dataDir} (${(error as Error).message}); stop what listens there or set EMBEDDED_PG_PORT to a free port.`,
      );
    }
    throw error;
  }
  return { url: embeddedUrl(port, DATABASE, credentials.app), close };
}

function explain(error: unknown): unknown {
  if (error instanceof EmbeddedPostgresBusyError) {
    return new DatabaseUnavailableError(
      `The embedded database in ${error.dataDir} is already running on port ${error.port} (pid ${error.pid}), started with other settings: set EMBEDDED_PG_PORT=${error.port} to use it, or stop that process first.`,
      { cause: error },
    );
  }
  if (error instanceof EmbeddedPostgresError)
    return new DatabaseUnavailableError(error.message.replaceAll('\n', ' '), { cause: error });
  return error;
}
