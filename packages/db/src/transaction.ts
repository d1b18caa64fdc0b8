import type { PrismaClient } from './generated/prisma/client.js';
import type { Db } from './types.js';

/**
 * Runs `work` in a transaction: a new one when `db` is the client, the caller's own when `db` is
 * already a transaction. So a service that takes `Db` can act alone or inside another
 * resource's transaction (all or nothing, one commit).
 */
export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const client = db as Partial<Pick<PrismaClient, '$transaction'>>;
  return typeof client.$transaction === 'function' ? client.$transaction((tx) => work(tx)) : work(db);
}

/**
 * Reads that must agree with each other (a page of rows and their children, read by Prisma in
 * several queries) in one REPEATABLE READ snapshot; inside a transaction already, in that one.
 */
export function inSnapshot<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const client = db as Partial<Pick<PrismaClient, '$transaction'>>;
  return typeof client.$transaction === 'function'
    ? client.$transaction((tx) => work(tx), { isolationLevel: 'RepeatableRead' })
    : work(db);
}
