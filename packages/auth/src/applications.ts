import { newId, sql, type Db, type Prisma, type Sql } from '@platform/db';

// Applications and their keys as the operator's CLI sees them (keys are created and revoked by
// keys-service.ts). This package owns both tables.

/** Stores a new application of an account for one service. */
export function insertApplication(
  db: Db,
  data: Pick<Prisma.ApplicationUncheckedCreateInput, 'account_id' | 'service' | 'name' | 'owner_email'> & {
    id?: string;
  },
) {
  return db.application.create({ data: { ...data, id: data.id ?? newId('app') } });
}

export function applicationById(db: Db, id: string) {
  return db.application.findUnique({ where: { id } });
}

/** The applications among `ids`, in no particular order. */
export function applicationsByIds(db: Db, ids: readonly string[]) {
  return db.application.findMany({ where: { id: { in: [...ids] } } });
}

/**
 * Changes the application's columns; resolves to the application as it is then, or null when
 * there is none (one statement: nothing is read before the write).
 */
export async function updateApplication(
  db: Db,
  id: string,
  data: Pick<Prisma.ApplicationUncheckedUpdateManyInput, 'owner_email' | 'rate_limit_per_minute'>,
) {
  const updated = await db.application.updateMany({ where: { id }, data });
  if (updated.count === 0) return null;
  return db.application.findUniqueOrThrow({ where: { id } });
}

/** The application's keys, newest first. */
export function keysOfApplication(db: Db, applicationId: string) {
  return db.apiKey.findMany({ where: { application_id: applicationId }, orderBy: { created_at: 'desc' } });
}

/** A key, or null when there is none. */
export function findKeyById(db: Db, id: string) {
  return db.apiKey.findUnique({ where: { id } });
}

/** A key known to exist. */
export function keyById(db: Db, id: string) {
  return db.apiKey.findUniqueOrThrow({ where: { id } });
}

/** The ids of the account's applications as rows `(id)`, for a join in another owner's SQL. */
export const applicationIdsOfAccount = (accountId: string): Sql =>
  sql`SELECT id FROM applications WHERE account_id = ${accountId}`;
