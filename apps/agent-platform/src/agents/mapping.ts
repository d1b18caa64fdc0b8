import type { Prisma } from '@platform/db';
import type { Agent, AgentInput } from './schemas.js';

type Row = Prisma.AgentDeploymentGetPayload<object>;
export type Columns = Omit<
  Prisma.AgentDeploymentUncheckedCreateInput,
  'id' | 'account_id' | 'status' | 'created_at' | 'updated_at' | 'retired_at' | 'artifact_count'
>;

/**
 * The columns a complete input sets. Absent optional fields become NULL (or `[]`), so writing
 * the result of a merge patch clears what the patch removed.
 */
export function toColumns(input: AgentInput): Columns {
  return {
    name: input.name,
    description: input.description ?? null,
    owning_team: input.owning_team,
    capabilities: input.capabilities ?? [],
    chargeback_amount_cents: input.chargeback_rate.amount_cents,
    chargeback_unit: input.chargeback_rate.unit,
    data_classification: input.data_classification ?? 'internal',
  };
}

/** The API representation; unset fields are `null`, no capabilities is `[]`. */
export function toAgent(row: Row): Agent {
  return {
    id: row.id,
    status: row.status,
    name: row.name,
    description: row.description,
    owning_team: row.owning_team,
    capabilities: row.capabilities ?? [],
    chargeback_rate: { amount_cents: row.chargeback_amount_cents, unit: row.chargeback_unit },
    data_classification: row.data_classification,
    artifact_count: row.artifact_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    retired_at: row.retired_at?.toISOString() ?? null,
  };
}

/** Whether the changed paths of an agent's PATCH include its chargeback rate (amount or unit). */
export const rateChanged = (changed: readonly string[]) =>
  changed.some((path) => path === 'chargeback_rate' || path.startsWith('chargeback_rate.'));
