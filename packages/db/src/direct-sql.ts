import { createHash } from 'node:crypto';
import pg from 'pg';
import { clientQuery, poolQuery } from './row-shapes.js';
import { inTransaction } from './transaction.js';
import type { Db } from './types.js';

// The pg pool under each client made by createPrisma: the hottest reads go to it directly.
const pools = new WeakMap<object, pg.Pool>();
// Pools whose statements stay unnamed: a transaction pooler older than PgBouncer 1.21 hands the
// next statement to another server connection, where a name prepared on the first is unknown.
const unprepared = new WeakSet<pg.Pool>();

export function registerPool(client: object, pool: pg.Pool, prepared = true): void {
  pools.set(client, pool);
  if (!prepared) unprepared.add(pool);
}

/** The query config of one statement: named (prepared once per connection) unless the pool says not to. */
function statement(pool: pg.Pool, text: string, values: unknown[]): pg.QueryConfig {
  return {
    ...(unprepared.has(pool) ? {} : { name: statementName(text) }),
    text,
    values: values.map(toParam),
    types,
  };
}

const utcDate = (value: string) => new Date(`${value}T00:00:00Z`);
const utcTimestamp = (value: string) => new Date(`${value.replace(' ', 'T')}Z`);
// Column types read as Prisma reads them: DATE and TIMESTAMP as UTC (pg's default is local time),
// BIGINT as bigint. Enum arrays and NUMERIC stay text: tables with them are not read this way.
const PRISMA_TYPES: Record<number, (value: string) => unknown> = {
  [pg.types.builtins.DATE]: utcDate,
  [pg.types.builtins.TIMESTAMP]: utcTimestamp,
  [pg.types.builtins.INT8]: (value) => BigInt(value),
};
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    (format ?? 'text') === 'text' && PRISMA_TYPES[oid]
      ? PRISMA_TYPES[oid]
      : pg.types.getTypeParser(oid, format ?? 'text'),
} as pg.CustomTypesConfig;

const statementNames = new Map<string, string>();
let generation = 0;
/** One name per statement text: pg prepares it once per connection and only binds it afterwards. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name)
    statementNames.set(
      text,
      (name = `read${generation}_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`),
    );
  return name;
}

/**
 * A prepared `SELECT *` fails once a migration has changed its table under a running process
 * ("cached plan must not change result type"): then every statement gets a new name, prepared
 * afresh on each connection, and a read outside a transaction is tried once more.
 */
function isStalePlan(error: unknown): boolean {
  return (
    (error as { code?: string }).code === '0A000' &&
    /cached plan must not change result type/.test((error as Error).message)
  );
}

function renameStatements(): void {
  generation++;
  statementNames.clear();
}

/**
 * The rows of one read, with Prisma's column types. On a client of createPrisma the statement goes
 * straight to its pg pool as a prepared statement (Prisma's query layer costs several times the
 * query itself on the hottest paths: see bench/RESULTS.md); in a transaction, through it.
 */
export async function readRows<Row>(db: Db | SqlRunner, text: string, values: unknown[]): Promise<Row[]> {
  const pool = pools.get(db);
  if (!pool) return db.$queryRawUnsafe<Row[]>(text, ...values);
  const read = async () => (await poolQuery(pool, statement(pool, text, values))).rows as Row[];
  try {
    return await read();
  } catch (error) {
    if (!isStalePlan(error)) throw error;
    renameStatements();
    return read();
  }
}

/**
 * What SQL needs of a database handle: Prisma's client and its transactions have it, and so has
 * the transaction of inDirectTransaction, so code written against it runs in either.
 */
export interface SqlRunner {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
}

// Dates as UTC text: pg writes them in the process's time zone, and a DATE column takes the day of that.
const toParam = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** A transaction on one pooled connection, with Prisma's column types and prepared statements. */
class PgTransaction implements SqlRunner {
  constructor(
    private readonly pool: pg.Pool,
    private readonly client: pg.PoolClient,
  ) {}

  async $queryRawUnsafe<T = unknown>(text: string, ...values: unknown[]): Promise<T> {
    return (await this.run(text, values)).rows as T;
  }

  async $executeRawUnsafe(text: string, ...values: unknown[]): Promise<number> {
    return (await this.run(text, values)).rowCount ?? 0;
  }

  private async run(text: string, values: unknown[]) {
    try {
      return await clientQuery(this.client, statement(this.pool, text, values));
    } catch (error) {
      if (isStalePlan(error)) renameStatements(); // the transaction is lost; the next one prepares anew
      throw error;
    }
  }
}

/**
 * Runs `work` in a transaction of SQL statements only: on a client of createPrisma, straight on a
 * connection of its pg pool (a fraction of the cost of Prisma's interactive transactions, see
 * bench/RESULTS.md); in a Prisma transaction already, in that one.
 */
export async function inDirectTransaction<T>(db: Db, work: (tx: SqlRunner) => Promise<T>): Promise<T> {
  const pool = pools.get(db);
  if (!pool) return inTransaction(db, (tx) => work(tx));
  const client = await pool.connect();
  let broken: Error | undefined;
  // pg-pool stops listening for a checked-out connection's errors: a connection the server drops
  // (restart, failover, a timeout) would otherwise be an uncaught 'error' event and end the process.
  const onError = (error: Error) => (broken = error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(new PgTransaction(pool, client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A connection that cannot even roll back is dropped from the pool, not handed out again.
    await client
      .query('ROLLBACK')
      .catch(
        (rollbackError: unknown) =>
          (broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))),
      );
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}
