import { sql, type ChargebackUnit, type Db, type Prisma } from '@platform/db';
import { accountZones } from '@platform/accounts';
import { agentUnits, ratesOfAccount, unratedAgentsOfAccount } from '../agents/index.js';
import { claimUnsettledUsage, countUnsettledUsage } from '../usage/index.js';

// Every statement of the monthly chargeback run (settle.ts), in the order it runs them: which accounts
// are due, the run row, the claim that prices the usage, the settlements with their lines and invoices.
// Tables of other owners are joined through the fragments they hand out (accounts, agents, usage).

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
    FROM (${accountZones()}) a
    CROSS JOIN LATERAL (
      SELECT to_char(date_trunc('month', ${at.toISOString()}::timestamptz AT TIME ZONE a.time_zone) - interval '1 month', 'YYYY-MM') AS period,
             (${at.toISOString()}::timestamptz AT TIME ZONE a.time_zone) >= date_trunc('month', ${at.toISOString()}::timestamptz AT TIME ZONE a.time_zone) + interval '2 hours' AS due
    ) l
    WHERE l.due
      AND (${accountId ?? null}::text IS NULL OR a.id = ${accountId ?? null}::text)
      AND EXISTS (SELECT 1 FROM (${agentUnits()}) d WHERE d.account_id = a.id)
      AND NOT EXISTS (SELECT 1 FROM chargeback_runs r WHERE r.account_id = a.id AND r.period = l.period)
    ORDER BY a.id`;
}

/** Every account of the agent platform (with agents), or the one given if it exists. */
export async function platformAccounts(db: Db, accountId?: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT a.id FROM (${accountZones()}) a
    WHERE (${accountId ?? null}::text IS NULL AND EXISTS (SELECT 1 FROM (${agentUnits()}) d WHERE d.account_id = a.id)) OR a.id = ${accountId ?? null}::text
    ORDER BY a.id`;
  return rows.map((r) => r.id);
}

/**
 * The run row first: it is the settlement's "exactly once". A concurrent run of the same account and
 * period waits on the primary key until this transaction ends, then inserts nothing. False: settled already.
 */
export async function insertRun(
  tx: Db,
  accountId: string,
  period: string,
  bounds: { start: Date; end: Date },
  at: Date,
): Promise<boolean> {
  const inserted = await tx.$executeRaw`
    INSERT INTO chargeback_runs (account_id, period, period_start, period_end, records, settlements, created_at)
    VALUES (${accountId}, ${period}, ${bounds.start}, ${bounds.end}, 0, 0, ${at})
    ON CONFLICT (account_id, period) DO NOTHING`;
  return inserted === 1;
}

/** The latest settled period of the account after `period`, if any (an earlier period is not settled after a later one). */
export async function laterRun(tx: Db, accountId: string, period: string): Promise<string | null> {
  const rows = await tx.$queryRaw<{ period: string }[]>`
    SELECT period FROM chargeback_runs WHERE account_id = ${accountId} AND period > ${period} ORDER BY period DESC LIMIT 1`;
  return rows[0]?.period ?? null;
}

/** The run of an account's period (known to exist). */
export function runOf(db: Db, accountId: string, period: string) {
  return db.chargebackRun.findUniqueOrThrow({ where: { account_id_period: { account_id: accountId, period } } });
}

/** One aggregated line: a team's usage of one agent at one rate in one month of use (and one unit). */
export interface AggregatedLine {
  team: string;
  agent_id: string;
  /** `YYYY-MM` in the account's zone. */
  usage_period: string;
  records: number;
  /** Sum of the quantities, decimal text. */
  quantity: string;
  /** The records' unit (the agent's unit when they were received). */
  unit: ChargebackUnit;
  rate_id: string;
  rate_amount_cents: number;
  rate_unit: ChargebackUnit;
  rate_valid_from: Date;
  /** round(quantity × rate) half up once; 0 when the unit is not the rate's (not priced). */
  amount_cents: string;
}

/**
 * Claims every unsettled usage record of the account that occurred before `end` (settled_in = period)
 * and prices it, set-based in one statement: each record joined to the rate of its agent valid when it
 * occurred — the agent's first rate also covers usage reported for a time before the agent was created —
 * and summed per team, agent, rate, month of use (account zone) and unit. A record of an agent without
 * any rate row is not claimed (it stays for a later run). A record whose unit is not its rate's unit (the
 * unit changed and the record was received after the change) is claimed on a line of amount 0.
 * The CTEs `rates` and `claimed` are the owners' fragments: agents' `ratesOfAccount` (validities,
 * `covers_from`) and usage's `claimUnsettledUsage` (the `UPDATE … RETURNING`), still one statement.
 */
export async function claimAndAggregate(
  tx: Db,
  accountId: string,
  period: string,
  bounds: { start: Date; end: Date },
  timeZone: string,
): Promise<AggregatedLine[]> {
  // The sums of ~10,000 groups fit in memory: hashed, not sorted on disk. A million records take ~25 s
  // (bench/RESULTS.md): the claim may run longer than the pool's 60 s statement limit, up to the transaction's.
  await tx.$executeRawUnsafe(`SET LOCAL work_mem = '64MB'`);
  await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = '10min'`);
  return tx.$queryRaw<AggregatedLine[]>`
    WITH rates AS (${ratesOfAccount(accountId)}
    ), claimed AS (${claimUnsettledUsage(accountId, period, bounds.end, sql`SELECT agent_id FROM rates`)}
    ), sums AS (
      SELECT c.team, c.agent_id, r.id AS rate_id, c.unit,
             CASE WHEN c.occurred_at >= ${bounds.start} THEN ${period} ELSE to_char(c.occurred_at AT TIME ZONE ${timeZone}, 'YYYY-MM') END AS usage_period,
             count(*)::int AS records, sum(c.quantity) AS quantity
      FROM claimed c JOIN rates r ON r.agent_id = c.agent_id AND r.covers_from <= c.occurred_at AND c.occurred_at < r.valid_to
      GROUP BY 1, 2, 3, 4, 5
    )
    SELECT s.team, s.agent_id, s.usage_period, s.records, s.quantity::text AS quantity, s.unit,
           r.id AS rate_id, r.amount_cents AS rate_amount_cents, r.unit AS rate_unit, r.valid_from AS rate_valid_from,
           (CASE WHEN s.unit = r.unit THEN round(s.quantity * r.amount_cents) ELSE 0 END)::bigint::text AS amount_cents
    FROM sums s JOIN rates r ON r.id = s.rate_id
    ORDER BY s.team, s.agent_id, s.usage_period, r.valid_from, s.unit`;
}

/**
 * Records before `end` left unsettled by the claim: those of agents without any rate row (normally none,
 * so nothing is counted; a count over `settled_in IS NULL` would walk the claim's million dead index entries).
 */
export function unclaimedBefore(tx: Db, accountId: string, end: Date): Promise<number> {
  return countUnsettledUsage(tx, accountId, unratedAgentsOfAccount(accountId), end);
}

/** Stores a run's settlements, one per team. */
export async function insertSettlements(
  db: Db,
  rows: { id: string; account_id: string; period: string; team: string; net_cents: bigint; created_at: Date }[],
): Promise<void> {
  await db.chargebackSettlement.createMany({ data: rows });
}

export interface LineRow {
  id: string;
  settlement_id: string;
  position: number;
  late: boolean;
  line: AggregatedLine;
}

/** The settlements' lines in one statement (`unnest` of one array per column). */
export function insertLines(tx: Db, accountId: string, rows: LineRow[]): Promise<number> {
  const col = <T>(pick: (r: LineRow) => T) => rows.map(pick);
  return tx.$executeRaw`
    INSERT INTO chargeback_lines (id, settlement_id, position, account_id, agent_id, usage_period, late, records, quantity, unit, rate_id, rate_amount_cents, amount_cents)
    SELECT l.id, l.settlement_id, l.position, ${accountId}, l.agent_id, l.usage_period, l.late, l.records, l.quantity, l.unit::"ChargebackUnit", l.rate_id, l.rate_amount_cents, l.amount_cents
    FROM unnest(
      ${col((r) => r.id)}::text[], ${col((r) => r.settlement_id)}::text[], ${col((r) => r.position)}::int[], ${col((r) => r.line.agent_id)}::text[],
      ${col((r) => r.line.usage_period)}::text[], ${col((r) => r.late)}::boolean[], ${col((r) => r.line.records)}::int[],
      ${col((r) => r.line.quantity)}::numeric[], ${col((r) => r.line.unit)}::text[], ${col((r) => r.line.rate_id)}::text[],
      ${col((r) => r.line.rate_amount_cents)}::int[], ${col((r) => r.line.amount_cents)}::bigint[]
    ) AS l(id, settlement_id, position, agent_id, usage_period, late, records, quantity, unit, rate_id, rate_amount_cents, amount_cents)`;
}

/** Stores a settlement's internal invoice. */
export async function insertInternalInvoice(
  db: Db,
  data: Omit<Prisma.InternalInvoiceUncheckedCreateInput, 'issuer'> & { issuer: object },
): Promise<void> {
  await db.internalInvoice.create({ data });
}

/** The run's counts once its settlements are written. */
export async function finishRun(
  tx: Db,
  accountId: string,
  period: string,
  records: number,
  settlements: number,
): Promise<void> {
  await tx.$executeRaw`UPDATE chargeback_runs SET records = ${records}, settlements = ${settlements} WHERE account_id = ${accountId} AND period = ${period}`;
}
