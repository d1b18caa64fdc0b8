import { Type } from '@sinclair/typebox';
import { accountExists, accountName, accountTimeZone } from '@platform/accounts';
import { findIssuer, nextInvoiceNumber, type InvoiceParty } from '@platform/billing';
import { advisoryXactLock, newId, newIds, type Db, type PrismaClient } from '@platform/db';
import { requestGeneration } from '@platform/documents';
import { localDate, localMonth } from '@platform/scheduling';
import { defineJob, JobRefusal, type JobQueue } from '@platform/service';
import { eventEmitter } from '@platform/webhooks';
import { AGENT_PLATFORM_EVENTS } from '../events.js';
import { internalInvoiceJobs } from './generation.js';
import { PERIOD_PATTERN } from './schemas.js';
import {
  claimAndAggregate,
  dueAccounts,
  finishRun,
  insertInternalInvoice,
  insertLines,
  insertRun,
  insertSettlements,
  laterRun,
  platformAccounts,
  runOf,
  unclaimedBefore,
  type AggregatedLine,
  type LineRow,
} from './settlement-sql.js';

// How settlements and internal invoices are made: `settleChargebacks` settles one account's closed
// month in one transaction; the `chargebacks` job (below) calls it each month for every due account
// and enqueues the invoices' PDFs (generation.ts). Every statement is in settlement-sql.ts.

const emit = eventEmitter('agent_platform', AGENT_PLATFORM_EVENTS);
/** A settlement of 1,000,000 records takes seconds; the transaction may take this long. */
const SETTLEMENT_TIMEOUT_MS = 10 * 60_000;

/** A settlement that cannot be made as asked (the CLI prints the message). */
export class SettlementRefused extends JobRefusal {}

export interface SettleRequest {
  accountId: string;
  /** `YYYY-MM` in the account's time zone. */
  period: string;
  now: Date;
}

export interface SettlementOutcome {
  account_id: string;
  period: string;
  /** `already_settled`: the period's run existed, nothing was done. */
  outcome: 'settled' | 'already_settled';
  records: number;
  settlements: number;
  /** Records claimed on lines of amount 0: their unit is not the unit of the rate valid when they occurred. */
  unpriced_records: number;
  /** Records before the period's end left unsettled: their agent has no rate row at all. */
  unclaimed_records: number;
  internal_invoice_ids: string[];
}

/**
 * The issuer an internal invoice copies: the account's billing profile, or — an internal invoice is
 * no §14 UStG invoice — the account's name with empty address fields, country `DE`.
 */
async function issuerOf(db: Db, accountId: string, name: string): Promise<InvoiceParty> {
  return (await findIssuer(db, accountId))?.party ?? { name, street: '', postal_code: '', city: '', country: 'DE' };
}

interface TeamSettlement {
  id: string;
  team: string;
  net: bigint;
  late: bigint;
  lines: AggregatedLine[];
}

function byTeam(lines: AggregatedLine[], period: string, at: number): TeamSettlement[] {
  const teams = new Map<string, TeamSettlement>();
  for (const line of lines) {
    let team = teams.get(line.team);
    if (!team) teams.set(line.team, (team = { id: newId('stl', at), team: line.team, net: 0n, late: 0n, lines: [] }));
    const amount = BigInt(line.amount_cents);
    team.net += amount;
    if (line.usage_period < period) team.late += amount;
    team.lines.push(line);
  }
  return [...teams.values()];
}

/**
 * Settles one closed period of an account exactly once, in one transaction: the run row (an existing
 * run: nothing happens), the claim of every unsettled record before the period's end priced at the rate
 * valid when it occurred (late records of earlier periods included, marked `late`), per consuming team a
 * settlement with its lines, an internal invoice (next gapless number, series `chargeback`, year of the
 * issue date) and `settlement.created`. Teams without usage get nothing. The invoices' PDFs are the
 * caller's to enqueue after the commit (their ids are returned).
 */
export async function settleChargebacks(
  db: PrismaClient,
  { accountId, period, now }: SettleRequest,
): Promise<SettlementOutcome> {
  if (!new RegExp(PERIOD_PATTERN).test(period))
    throw new SettlementRefused(`The period must be a month as YYYY-MM, not "${period}".`);
  const name = await accountName(db, accountId);
  if (name === undefined) throw new SettlementRefused(`No account with the id ${accountId}.`);
  const timeZone = await accountTimeZone(db, accountId);
  const bounds = localMonth(period, timeZone);
  if (bounds.end.getTime() > now.getTime()) {
    throw new SettlementRefused(
      `The period ${period} is not closed yet: it ends at ${bounds.end.toISOString()} (${timeZone}); only a closed period is settled.`,
    );
  }
  const issuer = await issuerOf(db, accountId, name);
  const issueDate = localDate(now, timeZone);
  const base = {
    account_id: accountId,
    period,
    unpriced_records: 0,
    unclaimed_records: 0,
    internal_invoice_ids: [] as string[],
  };
  return db.$transaction(
    async (tx): Promise<SettlementOutcome> => {
      // Runs of one account queue here: an earlier period must see a later period's run (and be refused), not its uncommitted row.
      await advisoryXactLock(tx, `chargebacks:${accountId}`);
      if (!(await insertRun(tx, accountId, period, bounds, now))) {
        const run = await runOf(tx, accountId, period);
        return { ...base, outcome: 'already_settled', records: run.records, settlements: run.settlements };
      }
      const later = await laterRun(tx, accountId, period);
      if (later)
        throw new SettlementRefused(
          `The period ${period} cannot be settled: the later period ${later} is settled already (its run took the earlier unsettled usage).`,
        );
      const lines = await claimAndAggregate(tx, accountId, period, bounds, timeZone);
      const teams = byTeam(lines, period, now.getTime());
      await insertSettlements(
        tx,
        teams.map((t) => ({
          id: t.id,
          account_id: accountId,
          period,
          team: t.team,
          net_cents: t.net,
          created_at: now,
        })),
      );
      const lineIds = newIds('cbl', lines.length, now.getTime());
      const rows: LineRow[] = teams.flatMap((t) =>
        t.lines.map((line, i) => ({
          id: lineIds.pop()!,
          settlement_id: t.id,
          position: i + 1,
          late: line.usage_period < period,
          line,
        })),
      );
      if (rows.length > 0) await insertLines(tx, accountId, rows);
      const invoiceIds: string[] = [];
      for (const t of teams) {
        const { number } = await nextInvoiceNumber(tx, accountId, 'chargeback', Number(issueDate.slice(0, 4)));
        const id = newId('iinv', now.getTime());
        await insertInternalInvoice(tx, {
          id,
          account_id: accountId,
          settlement_id: t.id,
          team: t.team,
          number,
          issue_date: new Date(`${issueDate}T00:00:00Z`),
          period,
          issuer: issuer as object,
          net_cents: t.net,
          created_at: now,
          updated_at: now,
        });
        invoiceIds.push(id);
        await emit(tx, {
          accountId,
          type: 'settlement.created',
          data: {
            settlement_id: t.id,
            team: t.team,
            amount_cents: Number(t.net),
            period,
            internal_invoice_id: id,
            internal_invoice_number: number,
            late_amount_cents: Number(t.late),
          },
          at: now,
        });
      }
      const records = lines.reduce((sum, l) => sum + l.records, 0);
      await finishRun(tx, accountId, period, records, teams.length);
      return {
        ...base,
        outcome: 'settled',
        records,
        settlements: teams.length,
        unpriced_records: lines.filter((l) => l.unit !== l.rate_unit).reduce((sum, l) => sum + l.records, 0),
        unclaimed_records: await unclaimedBefore(tx, accountId, bounds.end),
        internal_invoice_ids: invoiceIds,
      };
    },
    { timeout: SETTLEMENT_TIMEOUT_MS, maxWait: 10_000 },
  );
}

// The monthly run.

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
