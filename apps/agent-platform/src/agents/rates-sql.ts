import { newId, type ChargebackUnit, type SqlRunner } from '@platform/db';

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
