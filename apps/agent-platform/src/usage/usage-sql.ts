import type { ChargebackUnit, Db } from '@platform/db';

export interface UsageRow {
  id: string;
  client_id: string;
  team: string;
  /** Fixed six decimals, as text (no float rounding on the way in). */
  quantity: string;
  occurred_at: string;
}

/** The agent's status and unit under a share lock, so a concurrent retirement waits for the batch. */
export async function lockAgentForUsage(
  tx: Db,
  accountId: string,
  agentId: string,
): Promise<{ status: string; chargeback_unit: ChargebackUnit } | null> {
  const rows = await tx.$queryRaw<{ status: string; chargeback_unit: ChargebackUnit }[]>`
    SELECT status::text AS status, chargeback_unit FROM agent_deployments WHERE id = ${agentId} AND account_id = ${accountId} FOR SHARE`;
  return rows[0] ?? null;
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
    JOIN agent_deployments a ON a.id = u.agent_id AND a.account_id = u.account_id AND a.chargeback_unit = u.unit
    WHERE u.account_id = ${accountId} AND u.agent_id = ANY(${agentIds}::text[])
      AND u.occurred_at >= ${from.toISOString()}::timestamptz AND u.occurred_at < ${to.toISOString()}::timestamptz
    GROUP BY 1, 2 ORDER BY 1, 2`;
}
