import { sql, type ChargebackUnit, type Db, type Sql } from '@platform/db';
import { agentUnits } from '../agents/index.js';

export interface UsageRow {
  id: string;
  client_id: string;
  team: string;
  /** Fixed six decimals, as text (no float rounding on the way in). */
  quantity: string;
  occurred_at: string;
}

/**
 * The whole batch in one statement: `unnest` of one array per column; a `client_id` already stored
 * for the agent (or repeated in the batch) is skipped. Resolves to the number of rows inserted.
 */
export function insertUsage(
  tx: Db,
  accountId: string,
  agentId: string,
  unit: ChargebackUnit,
  receivedAt: Date,
  rows: UsageRow[],
): Promise<number> {
  const col = (pick: (r: UsageRow) => string) => rows.map(pick);
  return tx.$executeRaw`
    INSERT INTO usage_records (id, account_id, agent_id, client_id, team, quantity, unit, occurred_at, received_at)
    SELECT r.id, ${accountId}, ${agentId}, r.client_id, r.team, r.quantity, ${unit}::"ChargebackUnit", r.occurred_at, ${receivedAt.toISOString()}::timestamptz
    FROM unnest(
      ${col((r) => r.id)}::text[], ${col((r) => r.client_id)}::text[], ${col((r) => r.team)}::text[],
      ${col((r) => r.quantity)}::numeric[], ${col((r) => r.occurred_at)}::timestamptz[]
    ) AS r(id, client_id, team, quantity, occurred_at)
    ON CONFLICT (agent_id, client_id) DO NOTHING`;
}

export interface MonthlyUsage {
  agent_id: string;
  /** `YYYY-MM` (UTC). */
  month: string;
  /** Sum of the month's quantities, as text with six decimals. */
  quantity: string;
}

/** Sums of the agents' usage in each agent's current chargeback unit per calendar month (UTC) in [from, to). */
export function monthlyUsage(
  db: Db,
  accountId: string,
  agentIds: string[],
  from: Date,
  to: Date,
): Promise<MonthlyUsage[]> {
  return db.$queryRaw<MonthlyUsage[]>`
    SELECT u.agent_id, to_char(date_trunc('month', u.occurred_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month, sum(u.quantity)::text AS quantity
    FROM usage_records u
    JOIN (${agentUnits()}) a ON a.id = u.agent_id AND a.account_id = u.account_id AND a.chargeback_unit = u.unit
    WHERE u.account_id = ${accountId} AND u.agent_id = ANY(${agentIds}::text[])
      AND u.occurred_at >= ${from.toISOString()}::timestamptz AND u.occurred_at < ${to.toISOString()}::timestamptz
    GROUP BY 1, 2 ORDER BY 1, 2`;
}

/**
 * The claim of a chargeback run, for its CTE (`WITH claimed AS (${claimUnsettledUsage(…)})`): marks every
 * unsettled record of the account that occurred before `end` and whose agent is among `agentIds` (rows
 * `(agent_id)`) as settled in `period`, returning `(agent_id, team, quantity, unit, occurred_at)` of each.
 */
export const claimUnsettledUsage = (accountId: string, period: string, end: Date, agentIds: Sql): Sql => sql`
  UPDATE usage_records u SET settled_in = ${period}
  WHERE u.account_id = ${accountId} AND u.settled_in IS NULL AND u.occurred_at < ${end}
    AND u.agent_id IN (${agentIds})
  RETURNING u.agent_id, u.team, u.quantity, u.unit, u.occurred_at`;

/** How many records of the account that occurred before `end` are unsettled among those of `agentIds` (rows `(id)`). */
export async function countUnsettledUsage(db: Db, accountId: string, agentIds: Sql, end: Date): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM usage_records u
    WHERE u.account_id = ${accountId} AND u.agent_id IN (${agentIds}) AND u.settled_in IS NULL AND u.occurred_at < ${end}`;
  return row.n;
}
