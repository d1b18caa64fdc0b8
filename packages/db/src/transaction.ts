import type { Db, PrismaClient } from './client.js';

/**
 * Runs `work` in a transaction: a new one when `db` is the client, the caller's own when `db` is
 * already a transaction. So a service that takes `Db` can act alone or inside another
 * resource's transaction (all or nothing, one commit).
 */
export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const client = db as Partial<Pick<PrismaClient, '$transaction'>>;
  return typeof client.$transaction === 'function' ? client.$transaction((tx) => work(tx)) : work(db);
}
