import type { SqlRunner } from '@platform/db';

/** A forgotten (erased or anonymised) prospect of an account. */
export interface ForgottenProspect {
  accountId: string;
  prospectId: string;
}

/**
 * Removes what outreach holds about forgotten prospects: their announcements (which property was
 * announced to whom, with which score) and their daily counters. Ids only, but the person is gone:
 * nothing about them stays. Set-based (the nightly anonymisation forgets thousands at once); call
 * it in the forgetting transaction, each statement after the prospects' rows are changed (a
 * snapshot of its own sees an announcement committed while the forgetting waited on a row lock).
 */
export async function forgetOutreach(tx: SqlRunner, forgotten: readonly ForgottenProspect[]): Promise<void> {
  if (forgotten.length === 0) return;
  const accountIds = forgotten.map((prospect) => prospect.accountId);
  const prospectIds = forgotten.map((prospect) => prospect.prospectId);
  for (const table of ['outreach_announcements', 'outreach_daily_counts']) {
    await tx.$executeRawUnsafe(
      `DELETE FROM ${table} AS t USING unnest($1::text[], $2::text[]) AS f(account_id, prospect_id)
       WHERE t.account_id = f.account_id AND t.prospect_id = f.prospect_id`,
      accountIds,
      prospectIds,
    );
  }
}
