import type { Db } from './client.js';

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Locks the account's row with this id until the transaction ends (`update`: for a change of the
 * row; `share`: so that nobody changes it while it is referenced). False when the account has no
 * such row, which callers answer like a missing record. `table` is the SQL name the resource's
 * repository declares (never user input).
 */
export async function lockOwnRow(
  tx: Pick<Db, '$queryRawUnsafe'>,
  table: string,
  id: string,
  accountId: string,
  mode: 'update' | 'share' = 'update',
): Promise<boolean> {
  if (!TABLE_NAME.test(table)) throw new Error(`Not a table name: ${table}`);
  const rows = await tx.$queryRawUnsafe<unknown[]>(
    `SELECT 1 FROM "${table}" WHERE id = $1 AND account_id = $2 FOR ${mode === 'share' ? 'SHARE' : 'UPDATE'}`,
    id,
    accountId,
  );
  return rows.length > 0;
}

/**
 * Serialises work on one named thing (a content address, an account's registrations) until the
 * transaction ends: a transaction-scoped advisory lock on the hash of `key`.
 */
export async function advisoryXactLock(tx: Pick<Db, '$executeRaw'>, key: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

/**
 * Takes the lock of `advisoryXactLock` if nobody holds it, without waiting: false when another
 * transaction has it (for work that one taker at a time is enough for, such as a sweep).
 */
export async function tryAdvisoryXactLock(tx: Pick<Db, '$queryRaw'>, key: string): Promise<boolean> {
  const [{ taken }] = await tx.$queryRaw<{ taken: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) AS taken`;
  return taken;
}
