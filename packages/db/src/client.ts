import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { registerPool } from './direct-sql.js';
import { PrismaClient } from './generated/prisma/client.js';

export { PrismaClient };
export type { Prisma } from './generated/prisma/client.js';
export * from './generated/prisma/enums.js';
export type { Db } from './types.js';

export interface DatabaseOptions {
  url: string;
  /** Pool size per process; keep it small, both apps and the worker share one server. */
  maxConnections?: number;
  /** How long to wait for a connection (new or from the pool) before the query fails; default 5 s. */
  connectionTimeoutMs?: number;
  /** PostgreSQL cancels a statement running longer than this; default 60 s, 0 = no limit (maintenance jobs). */
  statementTimeoutMs?: number;
  /**
   * `transaction`: `url` is a pooler in transaction mode (PgBouncer), which refuses session
   * settings in the start-up message: the session's TimeZone and timeouts are the pooler's or the
   * role's then (`sessionProblems` checks them).
   */
  pooling?: 'none' | 'transaction';
  /** Named prepared statements for the direct reads and transactions (default true). */
  preparedStatements?: boolean;
}

/** The URL with `-c TimeZone=UTC` added to its `options` (pg lets the URL's own `options` win over the config's). */
export function withUtcSession(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // not a URL (a socket path or key=value string): pg reports it as it did
  }
  const given = parsed.searchParams.get('options');
  parsed.searchParams.set('options', given ? `${given} -c TimeZone=UTC` : '-c TimeZone=UTC');
  return parsed.toString();
}

export function createPrisma({
  url,
  maxConnections = 10,
  connectionTimeoutMs = 5_000,
  statementTimeoutMs = 60_000,
  pooling = 'none',
  preparedStatements = true,
}: DatabaseOptions): PrismaClient {
  // One pool for Prisma and the direct reads (readRows), so that the pool size stays the limit.
  const pool = new pg.Pool({
    max: maxConnections,
    connectionTimeoutMillis: connectionTimeoutMs,
    ...(pooling === 'transaction'
      ? { connectionString: url }
      : {
          // Prisma's adapter reads and writes timestamps as UTC whatever the session's zone (the server's
          // default, set by initdb from the host): the session must be UTC for both, and for readRows.
          connectionString: withUtcSession(url),
          statement_timeout: statementTimeoutMs,
          // a transaction left open by a crashed request must not hold its row locks for ever
          idle_in_transaction_session_timeout: 60_000,
        }),
  });
  // An idle connection's error (the server restarted) is the pool's to handle, not a crash.
  pool.on('error', () => {});
  // The same read can carry the start-up's ReadyForQuery and, from a server shutting down, 57P01:
  // pg-pool hands the connection over in between, before its holder (inDirectTransaction, Prisma's
  // adapter) can listen for its errors, and an 'error' event without a listener ends the process.
  // Every connection listens from its start; its holder learns of the loss at its next statement.
  pool.on('connect', (connection) => connection.on('error', () => {}));
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
  const disconnect = client.$disconnect.bind(client);
  // The pool is ours: ended with the client (Prisma leaves a pool it was given open).
  client.$disconnect = async () => {
    await disconnect();
    if (!pool.ended) await pool.end();
  };
  registerPool(client, pool, preparedStatements);
  return client;
}

// P1001 unreachable, P1002 timed out, P1017 closed the connection, P2024 no pooled connection in time,
// P2028 no transaction could be started in time (the pool was exhausted).
// From pg directly (readRows, inDirectTransaction): socket errors, and PostgreSQL's own for a server
// shutting down (57P01–57P03), one with no connection left (53300) or a broken connection (class 08 but 08P01).
const UNAVAILABLE_CODES = new Set([
  'P1001',
  'P1002',
  'P1017',
  'P2024',
  'P2028',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|ECONNREFUSED|connection error and is not queryable/;

// The adapter's names for a socket's errors (ENOTFOUND, ECONNREFUSED, ECONNRESET, ETIMEDOUT) and for 53300.
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

// 08P01 (protocol violation) is in class 08 too, but a client's bug (a wrong parameter count), not an outage.
const isUnavailableCode = (code: string) => UNAVAILABLE_CODES.has(code) || (code.startsWith('08') && code !== '08P01');

/** Whether an error says the database could not be reached in time (a 503, not a 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && isUnavailableCode(code)) return true;
    // Prisma wraps a PostgreSQL error it has no code of its own for (P2039, P2010 for raw SQL):
    // the server's code is the driver's `originalCode`; a socket's error is the adapter's `kind`.
    const driverError = (
      e as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; kind?: unknown } } } }
    ).meta?.driverAdapterError?.cause;
    if (typeof driverError?.originalCode === 'string' && isUnavailableCode(driverError.originalCode)) return true;
    if (typeof driverError?.kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(driverError.kind)) return true;
    if (UNAVAILABLE_MESSAGES.test(e.message)) return true;
    // Node's connection attempts to every address of a name (::1 and 127.0.0.1) fail together.
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}
