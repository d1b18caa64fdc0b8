import { newId, type ChargebackUnit, type Db } from '@platform/db';

/** The rate an agent's chargebacks are priced at from `at` on. */
export interface RateStart {
  accountId: string;
  agentId: string;
  amount_cents: number;
  unit: ChargebackUnit;
  at: Date;
}

/** Opens the agent's first rate (valid from its creation, open-ended): inside the creating transaction. */
export async function openRate(tx: Db, { accountId, agentId, amount_cents, unit, at }: RateStart): Promise<void> {
  await tx.agentRate.create({ data: { id: newId('rate', at.getTime()), account_id: accountId, agent_id: agentId, amount_cents, unit, valid_from: at } });
}

/**
 * A changed chargeback rate: the open row is closed at `at` and a new one opens at `at`, so the
 * validities stay contiguous. Runs in the PATCH's transaction under the agent's row lock, so two
 * changes of one agent never interleave.
 */
export async function changeRate(tx: Db, rate: RateStart): Promise<void> {
  await tx.agentRate.updateMany({ where: { agent_id: rate.agentId, account_id: rate.accountId, valid_to: null }, data: { valid_to: rate.at } });
  await openRate(tx, rate);
}

/** Whether the changed paths of an agent's PATCH include its chargeback rate (amount or unit). */
export const rateChanged = (changed: readonly string[]) => changed.some((path) => path === 'chargeback_rate' || path.startsWith('chargeback_rate.'));
