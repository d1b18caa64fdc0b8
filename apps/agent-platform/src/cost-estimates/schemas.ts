import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, StringEnum } from '@platform/http';
import { CHARGEBACK_UNITS } from '../agents/index.js';

const Unit = StringEnum(CHARGEBACK_UNITS);

export const CostEstimateQuerySchema = Type.Object({
  quantity: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: 999_999_999_999,
      description: 'Expected usage a month in `unit`, at most six decimals; with `unit`.',
    }),
  ),
  unit: Type.Optional(StringEnum(CHARGEBACK_UNITS, { description: 'The unit of `quantity`; with `quantity`.' })),
});

export const ProfileEstimateQuerySchema = Type.Object({
  profile_id: Type.String({ minLength: 1, description: 'A capability profile of the account.' }),
});

export const ExpectedEstimateSchema = Type.Object(
  {
    estimable: Type.Boolean(),
    quantity: Type.String({ description: 'Expected quantity a month (decimal text).' }),
    unit: Unit,
    monthly_cents: Nullable(
      Type.Integer({ description: 'Rate × quantity, rounded half up; `null` when not estimable.' }),
    ),
    reason: Type.String(),
  },
  { description: 'The cost of the expected usage.' },
);

export const RecordedEstimateSchema = Type.Object(
  {
    estimable: Type.Boolean(),
    from: Type.String({
      format: 'date-time',
      description: 'Start of the window (inclusive): the first day of the third month before the current one, UTC.',
    }),
    to: Type.String({
      format: 'date-time',
      description: 'End of the window (exclusive): the first day of the current month, UTC.',
    }),
    months: Type.Array(
      Type.Object({
        month: Type.String({ description: '`YYYY-MM`' }),
        quantity: Type.String(),
        cost_cents: Type.Integer(),
      }),
    ),
    mean_monthly_cents: Nullable(Type.Integer()),
    min_monthly_cents: Nullable(Type.Integer()),
    max_monthly_cents: Nullable(Type.Integer()),
    reason: Type.String(),
  },
  { description: 'The cost of the recorded usage of the trailing three full months: mean and range.' },
);

export const CostEstimateSchema = Named(
  'CostEstimate',
  Type.Object(
    {
      agent_id: Type.String(),
      method_version: Type.String({ description: 'Version of the method; changes when the computation changes.' }),
      rate: Type.Object(
        { amount_cents: Type.Integer(), unit: Unit },
        { description: 'The agent’s current chargeback rate.' },
      ),
      expected: Nullable(ExpectedEstimateSchema),
      recorded: RecordedEstimateSchema,
      steps: Type.Array(Type.Object({ step: Type.String(), description: Type.String() }), {
        description: 'How the figures are computed, in order.',
      }),
      rounding: Type.String(),
    },
    { description: 'A monthly cost estimate of an agent, explained: the inputs, each step and the method version.' },
  ),
);
export type CostEstimate = Static<typeof CostEstimateSchema>;

export const ProfileCostEstimatesSchema = Named(
  'ProfileCostEstimates',
  Type.Object(
    {
      profile_id: Type.String(),
      method_version: Type.String(),
      required_capabilities: Type.Array(Type.String()),
      data_classification: Type.String(),
      budget_monthly_cents: Type.Integer(),
      expected_usage: Type.Object({ quantity: Type.Integer(), unit: Unit }),
      selection: Type.String({ description: 'Which agents are listed and in what order.' }),
      agents: Type.Array(
        Type.Object({
          agent_id: Type.String(),
          name: Type.String(),
          fits_budget: Nullable(
            Type.Boolean({ description: 'Expected monthly cost ≤ budget; `null` when the cost cannot be estimated.' }),
          ),
          estimate: CostEstimateSchema,
        }),
      ),
    },
    { description: 'Cost estimates of the agents that can serve a capability profile.' },
  ),
);
export type ProfileCostEstimates = Static<typeof ProfileCostEstimatesSchema>;

export const CostEstimateParamsSchema = Type.Object({ agentId: Type.String() });
