import { newId, sql, type ChargebackUnit, type Sql, type SqlRunner } from '@platform/db';

/** The rate an agent's chargebacks are priced at from `at` on. */
export interface RateStart {
  accountId: string;
  agentId: string;
  amount_cents: number;
  unit: ChargebackUnit;
  at: Date;
}

/** Opens the agent's first rate (valid from its creation, open-ended): inside the creating transaction. */
export async function openRate(
  tx: SqlRunner,
  { accountId, agentId, amount_cents, unit, at }: RateStart,
): Promise<void> {
  await tx.$executeRawUnsafe(
    'INSERT INTO agent_rates (id, account_id, agent_id, amount_cents, unit, valid_from) VALUES ($1, $2, $3, $4, $5::"ChargebackUnit", $6::timestamptz)',
    newId('rate', at.getTime()),
    accountId,
    agentId,
    amount_cents,
    unit,
    at,
  );
}

/**
 * A changed chargeback rate: the open row is closed at `at` and a new one opens at `at`, so the
 * validities stay contiguous. Runs in the PATCH's transaction under the agent's row lock, so two
 * changes of one agent never interleave.
 */
export async function changeRate(tx: SqlRunner, rate: RateStart): Promise<void> {
  await tx.$executeRawUnsafe(
    'UPDATE agent_rates SET valid_to = $3::timestamptz WHERE agent_id = $1 AND account_id = $2 AND valid_to IS NULL',
    rate.agentId,
    rate.accountId,
    rate.at,
  );
  await openRate(tx, rate);
}

/**
 * The account's rates as rows `(id, agent_id, amount_cents, unit, valid_from, valid_to, covers_from)`,
 * for a join in another owner's SQL (the chargeback claim): `valid_to` of the open rate is `infinity`;
 * `covers_from` is `valid_from`, but `-infinity` for the agent's first rate, which also covers usage
 * reported for a time before the agent was created. The rate valid at `t`: `covers_from <= t < valid_to`.
 */
export const ratesOfAccount = (accountId: string): Sql => sql`
  SELECT id, agent_id, amount_cents, unit, valid_from, coalesce(valid_to, 'infinity'::timestamptz) AS valid_to,
         CASE WHEN row_number() OVER (PARTITION BY agent_id ORDER BY valid_from, id) = 1 THEN '-infinity'::timestamptz ELSE valid_from END AS covers_from
  FROM agent_rates WHERE account_id = ${accountId}`;

/** The account's agents without any rate row (normally none) as rows `(id)`, for a join in another owner's SQL. */
export const unratedAgentsOfAccount = (accountId: string): Sql => sql`
  SELECT d.id FROM agent_deployments d WHERE d.account_id = ${accountId} AND NOT EXISTS (SELECT 1 FROM agent_rates r WHERE r.agent_id = d.id)`;
