import { applicationIdsOfAccount } from '@platform/auth';
import { joinSql, sql, type Db } from '@platform/db';

// Raw SQL over the owners' fragments (the accounts and applications tables stay named in their
// owners' packages): which applications each account has.

/** How many applications one query may count (a parameter per account). */
const COUNT_BATCH = 1000;

/** The number of applications of each account among `accountIds`, by id. */
export async function applicationCounts(db: Pick<Db, '$queryRaw'>, accountIds: readonly string[]) {
  const counts = new Map<string, number>();
  for (let at = 0; at < accountIds.length; at += COUNT_BATCH) {
    const counted = accountIds
      .slice(at, at + COUNT_BATCH)
      .map((id) => sql`SELECT ${id}::text AS account_id, count(*)::int AS n FROM (${applicationIdsOfAccount(id)}) a`);
    const rows = await db.$queryRaw<{ account_id: string; n: number }[]>(joinSql(counted, ' UNION ALL '));
    for (const row of rows) counts.set(row.account_id, row.n);
  }
  return counts;
}

/** The ids of the account's applications. */
export async function applicationIdsOf(db: Pick<Db, '$queryRaw'>, accountId: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>(sql`${applicationIdsOfAccount(accountId)}`);
  return rows.map((row) => row.id);
}
