import { Type } from '@sinclair/typebox';
import { requestGeneration } from '@platform/documents';
import type { PrismaClient } from '@platform/db';
import { defineJob, type JobQueue } from '@platform/service';
import { internalInvoiceJobs } from './generation.js';
import { accountExists } from '@platform/accounts';
import { dueAccounts, platformAccounts } from './schedule-sql.js';
import { PERIOD_PATTERN } from './schemas.js';
import { settleChargebacks, SettlementRefused, type SettlementOutcome } from './settle.js';

export const ChargebacksPayloadSchema = Type.Object(
  {
    period: Type.Optional(
      Type.String({
        pattern: PERIOD_PATTERN,
        description: 'Settle this month (`YYYY-MM`, closed in the account’s zone) instead of the due previous month.',
      }),
    ),
    account_id: Type.Optional(
      Type.String({ minLength: 1, description: 'Only this account (default: every account with agents).' }),
    ),
  },
  { additionalProperties: false },
);

/** Settles and, after the commit, enqueues the invoices' PDFs (a queue that cannot be reached: the sweeper enqueues them). */
async function settleAndEnqueue(
  db: PrismaClient,
  jobs: JobQueue,
  accountId: string,
  period: string,
  now: Date,
): Promise<SettlementOutcome & { not_enqueued: number }> {
  const outcome = await settleChargebacks(db, { accountId, period, now });
  let notEnqueued = 0;
  for (const id of outcome.internal_invoice_ids) {
    await requestGeneration(
      () => internalInvoiceJobs.enqueue(jobs, id),
      () => (notEnqueued += 1),
    );
  }
  return { ...outcome, not_enqueued: notEnqueued };
}

/**
 * The monthly chargeback run, every 15 minutes (UTC): each account of the agent platform whose local time
 * is at or past the 1st, 02:00, gets its previous month settled unless that month's run exists. With
 * `period` (the CLI's `--period`): that period, for `account_id` or every account; an account where it is
 * not closed yet (its zone) is reported as refused. One account's failure does not stop the others; the
 * run fails at the end, naming them.
 */
export const CHARGEBACKS_JOB = defineJob({
  name: 'chargebacks',
  description:
    'Settles each account’s previous month once its local time is at or past the 1st, 02:00 (usage × the rate valid at the time of use, a settlement ' +
    'and an internal invoice per consuming team, `settlement.created`); `period` settles a given closed month, `account_id` only one account.',
  payload: ChargebacksPayloadSchema,
  schedule: { pattern: '*/15 * * * *', tz: 'UTC' },
  retry: { attempts: 3, backoffMs: 60_000 },
  run: async ({ db, now, jobs }, { period, account_id }) => {
    const work = period
      ? (await platformAccounts(db, account_id)).map((id) => ({ account_id: id, period }))
      : await dueAccounts(db, now, account_id);
    if (account_id && !(await accountExists(db, account_id)))
      throw new SettlementRefused(`No account with the id ${account_id}.`);
    const settled: (SettlementOutcome & { not_enqueued: number })[] = [];
    const refused: { account_id: string; period: string; reason: string }[] = [];
    const failed: { account_id: string; period: string; error: string }[] = [];
    for (const item of work) {
      try {
        settled.push(await settleAndEnqueue(db, jobs, item.account_id, item.period, now));
      } catch (error) {
        if (error instanceof SettlementRefused) refused.push({ ...item, reason: error.message });
        else failed.push({ ...item, error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (failed.length > 0)
      throw new Error(
        `Chargebacks failed for ${failed.map((f) => `${f.account_id} (${f.period}): ${f.error}`).join('; ')}`,
      );
    // A period asked for by hand that no account could settle (not closed yet): the refusal is the answer.
    if (settled.length === 0 && refused.length > 0) throw new SettlementRefused(refused[0].reason);
    return { settled, refused };
  },
});
