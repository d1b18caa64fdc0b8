import { newId, sql, type Db, type Sql } from '@platform/db';

// The accounts table: only here is it queried or written. Both services and the CLI ask through
// this package's entry; raw SQL elsewhere joins `accountZones()` instead of naming the table.

/** Stores a new account (its time zone and default country default in the database unless given). */
export function insertAccount(db: Db, data: { name: string; time_zone?: string; id?: string }) {
  return db.account.create({ data: { ...data, id: data.id ?? newId('acct') } });
}

/** Whether the account exists. */
export async function accountExists(db: Db, id: string): Promise<boolean> {
  return (await db.account.findUnique({ where: { id }, select: { id: true } })) !== null;
}

/** The account's name, or undefined when there is no such account. */
export async function accountName(db: Db, id: string): Promise<string | undefined> {
  return (await db.account.findUnique({ where: { id }, select: { name: true } }))?.name;
}

/** The names of the accounts among `ids`, by id. */
export async function accountNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.account.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true } });
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Every account, oldest first (the operator's `account list`). */
export function listAccounts(db: Db) {
  return db.account.findMany({
    select: { id: true, name: true, time_zone: true, created_at: true },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
}

/** The account's time zone (`Europe/Berlin` unless set): times are shown and exported in it. The account exists. */
export async function accountTimeZone(db: Db, id: string): Promise<string> {
  return (await db.account.findUniqueOrThrow({ where: { id }, select: { time_zone: true } })).time_zone;
}

/** The account's id and time zone, or null when there is no such account. */
export function findAccountTimeZone(db: Db, id: string) {
  return db.account.findUnique({ where: { id }, select: { id: true, time_zone: true } });
}

/** The account's default country (the country of a property whose address names none), or null when there is no account. */
export async function accountDefaultCountry(db: Db, id: string): Promise<string | null> {
  return (await db.account.findUnique({ where: { id }, select: { default_country: true } }))?.default_country ?? null;
}

/** Sets the time zone; resolves to the id and zone. The account exists. */
export function setAccountTimeZone(db: Db, id: string, timeZone: string) {
  return db.account.update({ where: { id }, data: { time_zone: timeZone }, select: { id: true, time_zone: true } });
}

/** Sets the default country. The account exists. */
export async function setAccountDefaultCountry(db: Db, id: string, country: string): Promise<void> {
  await db.account.update({ where: { id }, data: { default_country: country } });
}

/** Every account as rows `(id, time_zone)`, for a join in another owner's SQL. */
export const accountZones = (): Sql => sql`SELECT id, time_zone FROM accounts`;
