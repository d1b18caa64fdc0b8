import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db } from './client.js';

// The pg pool under each client made by createPrisma: the hottest reads go to it directly.
const pools = new WeakMap<object, pg.Pool>();

export function registerPool(client: object, pool: pg.Pool): void {
  pools.set(client, pool);
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
    (format ?? 'text') === 'text' && PRISMA_TYPES[oid] ? PRISMA_TYPES[oid] : pg.types.getTypeParser(oid, format ?? 'text'),
} as pg.CustomTypesConfig;

const statementNames = new Map<string, string>();
/** One name per statement text: pg prepares it once per connection and only binds it afterwards. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `read_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`));
  return name;
}

/**
 * The rows of one read, with Prisma's column types. On a client of createPrisma the statement goes
 * straight to its pg pool as a prepared statement (Prisma's query layer costs several times the
 * query itself on the hottest paths: see bench/RESULTS.md); in a transaction, through it.
 */
export async function readRows<Row>(db: Db, text: string, values: unknown[]): Promise<Row[]> {
  const pool = pools.get(db);
  if (!pool) return db.$queryRawUnsafe<Row[]>(text, ...values);
  const result = await pool.query({ name: statementName(text), text, values, types });
  return result.rows as Row[];
}
