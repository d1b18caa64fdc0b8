import { inTransaction, newId, type Prisma, type PrismaClient } from '@platform/db';

// Every query of the operator commands, by table: the command files are rules over these calls.
// (Keys are created and revoked by @platform/auth, billing profiles written by @platform/billing,
// stored blobs listed by @platform/uploads: those packages own their writes.)

/** The market transactions of one import are written in batches of this many rows. */
const BATCH = 1000;

// accounts

/** Stores a new account (its time zone defaults in the database unless given). */
export function insertAccount(db: PrismaClient, data: { name: string; time_zone?: string }) {
  return db.account.create({ data: { id: newId('acct'), ...data } });
}

/** The account's id, or null when there is none. */
export function findAccountId(db: PrismaClient, id: string) {
  return db.account.findUnique({ where: { id }, select: { id: true } });
}

/** The account's id and time zone, or null. */
export function findAccountTimeZone(db: PrismaClient, id: string) {
  return db.account.findUnique({ where: { id }, select: { id: true, time_zone: true } });
}

/** The account's default country (null when unset), or null when there is no account. */
export function findAccountDefaultCountry(db: PrismaClient, id: string) {
  return db.account.findUnique({ where: { id }, select: { default_country: true } });
}

export function setAccountTimeZone(db: PrismaClient, id: string, timeZone: string) {
  return db.account.update({ where: { id }, data: { time_zone: timeZone }, select: { id: true, time_zone: true } });
}

export async function setAccountDefaultCountry(db: PrismaClient, id: string, country: string): Promise<void> {
  await db.account.update({ where: { id }, data: { default_country: country } });
}

// applications

export function insertApplication(
  db: PrismaClient,
  data: Pick<Prisma.ApplicationUncheckedCreateInput, 'account_id' | 'service' | 'name' | 'owner_email'>,
) {
  return db.application.create({ data: { id: newId('app'), ...data } });
}

export function applicationById(db: PrismaClient, id: string) {
  return db.application.findUnique({ where: { id } });
}

/**
 * Changes the application's columns; resolves to the application as it is then, or null when
 * there is none (one statement: nothing is read before the write).
 */
export async function updateApplication(
  db: PrismaClient,
  id: string,
  data: Pick<Prisma.ApplicationUncheckedUpdateManyInput, 'owner_email' | 'rate_limit_per_minute'>,
) {
  const updated = await db.application.updateMany({ where: { id }, data });
  if (updated.count === 0) return null;
  return db.application.findUniqueOrThrow({ where: { id } });
}

// api keys

/** The application's keys, newest first. */
export function keysOfApplication(db: PrismaClient, applicationId: string) {
  return db.apiKey.findMany({ where: { application_id: applicationId }, orderBy: { created_at: 'desc' } });
}

/** A key known to exist. */
export function keyById(db: PrismaClient, id: string) {
  return db.apiKey.findUniqueOrThrow({ where: { id } });
}

// application api calls

/** Applications that called the version since `since`, with their account; most recent call first. */
export function callersOfVersion(db: PrismaClient, version: string, since: Date) {
  return db.applicationApiCall.findMany({
    where: { api_version: version, last_called_at: { gte: since } },
    include: { application: { include: { account: { select: { id: true, name: true } } } } },
    orderBy: [{ last_called_at: 'desc' }, { application_id: 'asc' }],
  });
}

// appointments

/** The account's appointments starting in [from, to), by start then id; nothing about the prospect. */
export function appointmentsBetween(db: PrismaClient, accountId: string, from: Date, to: Date) {
  return db.appointment.findMany({
    where: { account_id: accountId, starts_at: { gte: from, lt: to } },
    orderBy: [{ starts_at: 'asc' }, { id: 'asc' }],
    select: { id: true, property_id: true, status: true, starts_at: true, ends_at: true, host: true },
  });
}

// market transactions

/** Stores an import's market transactions, all or nothing (one transaction, in batches). */
export async function insertMarketTransactions(
  db: PrismaClient,
  data: Prisma.MarketTransactionCreateManyInput[],
): Promise<void> {
  await inTransaction(db, async (tx) => {
    for (let i = 0; i < data.length; i += BATCH)
      await tx.marketTransaction.createMany({ data: data.slice(i, i + BATCH) });
  });
}
