import type { Prisma } from '@platform/db';
import type { CapabilityProfile, CapabilityProfileInput } from './schemas.js';

export type CapabilityProfileRow = Prisma.CapabilityProfileGetPayload<object>;
export type Columns = Omit<
  Prisma.CapabilityProfileUncheckedCreateInput,
  'id' | 'account_id' | 'created_at' | 'updated_at'
>;

export function toColumns(input: CapabilityProfileInput): Columns {
  return {
    team: input.team,
    name: input.name,
    required_capabilities: input.required_capabilities ?? [],
    data_classification: input.data_classification,
    budget_monthly_cents: input.budget.monthly_limit_cents,
    usage_quantity: input.budget.expected_usage.quantity,
    usage_unit: input.budget.expected_usage.unit,
  };
}

export function toCapabilityProfile(row: CapabilityProfileRow): CapabilityProfile {
  return {
    id: row.id,
    team: row.team,
    name: row.name,
    required_capabilities: row.required_capabilities ?? [],
    data_classification: row.data_classification,
    budget: {
      monthly_limit_cents: row.budget_monthly_cents,
      expected_usage: { quantity: row.usage_quantity, unit: row.usage_unit },
    },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
