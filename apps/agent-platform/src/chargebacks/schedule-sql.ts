import type { Db } from '@platform/db';

/** An account whose previous month is due for settlement. */
export interface DueAccount {
  account_id: string;
  /** The previous month in the account's zone, `YYYY-MM`. */
  period: string;
}

/**
 * Accounts of the agent platform (they have agents) whose local time is at or past the 1st of the
 * month, 02:00, and whose previous month has no run yet; optionally only one account.
 */
export function dueAccounts(db: Db, at: Date, accountId?: string): Promise<DueAccount[]> {
  return db.$queryRaw<DueAccount[]>`
    SELECT a.id AS account_id, l.period
    FROM accounts a
    CROSS JOIN LATERAL (
      SELECT to_char(date_trunc('month', ${at.toISOString()}::timestamptz AT TIME ZONE a.time_zone) - interval '1 month', 'YYYY-MM') AS period,
             (${at.toISOString()}::timestamptz AT TIME ZONE a.time_zone) >= date_trunc('month', ${at.toISOString()}::timestamptz AT TIME ZONE a.time_zone) + interval '2 hours' AS due
    ) l
    WHERE l.due
      AND (${accountId ?? null}::text IS NULL OR a.id = ${accountId ?? null}::text)
      AND EXISTS (SELECT 1 FROM agent_deployments d WHERE d.account_id = a.id)
      AND NOT EXISTS (SELECT 1 FROM chargeback_runs r WHERE r.account_id = a.id AND r.period = l.period)
    ORDER BY a.id`;
}

/** Every account of the agent platform (with agents), or the one given if it exists. */
export async function platformAccounts(db: Db, accountId?: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT a.id FROM accounts a
    WHERE (${accountId ?? null}::text IS NULL AND EXISTS (SELECT 1 FROM agent_deployments d WHERE d.account_id = a.id)) OR a.id = ${accountId ?? null}::text
    ORDER BY a.id`;
  return rows.map((r) => r.id);
}
