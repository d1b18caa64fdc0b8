import type { ChargebackUnit, Db } from '@platform/db';

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
    WITH rates AS (
      SELECT id, agent_id, amount_cents, unit, valid_from, coalesce(valid_to, 'infinity'::timestamptz) AS valid_to,
             CASE WHEN row_number() OVER (PARTITION BY agent_id ORDER BY valid_from, id) = 1 THEN '-infinity'::timestamptz ELSE valid_from END AS covers_from
      FROM agent_rates WHERE account_id = ${accountId}
    ), claimed AS (
      UPDATE usage_records u SET settled_in = ${period}
      WHERE u.account_id = ${accountId} AND u.settled_in IS NULL AND u.occurred_at < ${bounds.end}
        AND u.agent_id IN (SELECT agent_id FROM rates)
      RETURNING u.agent_id, u.team, u.quantity, u.unit, u.occurred_at
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
export async function unclaimedBefore(tx: Db, accountId: string, end: Date): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM usage_records u
    WHERE u.account_id = ${accountId} AND u.agent_id IN (
      SELECT d.id FROM agent_deployments d WHERE d.account_id = ${accountId} AND NOT EXISTS (SELECT 1 FROM agent_rates r WHERE r.agent_id = d.id)
    ) AND u.settled_in IS NULL AND u.occurred_at < ${end}`;
  return row.n;
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

/** The latest settled period of the account after `period`, if any (an earlier period is not settled after a later one). */
export async function laterRun(tx: Db, accountId: string, period: string): Promise<string | null> {
  const rows = await tx.$queryRaw<{ period: string }[]>`
    SELECT period FROM chargeback_runs WHERE account_id = ${accountId} AND period > ${period} ORDER BY period DESC LIMIT 1`;
  return rows[0]?.period ?? null;
}
