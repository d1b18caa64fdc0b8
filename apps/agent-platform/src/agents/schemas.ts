import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, type Patch, PatchSchemaOf, StringEnum, withReadOnly } from '@platform/http';

export const AGENT_STATUSES = ['active', 'retired'] as const;
export const CHARGEBACK_UNITS = ['per_request', 'per_1k_tokens', 'per_hour', 'per_month'] as const;
/** From least to most sensitive; clearance for a level covers every lower one. */
export const DATA_CLASSIFICATIONS = ['public', 'internal', 'confidential', 'restricted'] as const;
export type DataClassification = (typeof DATA_CLASSIFICATIONS)[number];
export const CAPABILITY_NAME_PATTERN = '^[a-z0-9][a-z0-9_.:-]{0,63}$';

export const ChargebackRateSchema = Type.Object(
  {
    amount_cents: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Price per unit in whole cents.' }),
    unit: StringEnum(CHARGEBACK_UNITS, { description: 'What one `amount_cents` pays for.' }),
  },
  { additionalProperties: false, description: 'What the owning team is charged for using the agent.' },
);

const inputFields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  owning_team: Type.String({
    minLength: 1,
    maxLength: 120,
    description: 'The team that runs the agent and pays its chargeback.',
  }),
  capabilities: Type.Optional(
    Type.Array(Type.String({ pattern: CAPABILITY_NAME_PATTERN }), {
      maxItems: 50,
      uniqueItems: true,
      default: [],
      description: 'Distinct capability names (lower case letters, digits, `_ . : -`); default `[]`.',
    }),
  ),
  chargeback_rate: ChargebackRateSchema,
  data_classification: Type.Optional(
    StringEnum(DATA_CLASSIFICATIONS, {
      default: 'internal',
      description:
        'The most sensitive data the agent is cleared to process (`public` < `internal` < `confidential` < `restricted`); default `internal`.',
    }),
  ),
};

export const READ_ONLY_FIELDS = ['id', 'status', 'artifact_count', 'created_at', 'updated_at', 'retired_at'] as const;

export const AgentInputSchema = Named(
  'AgentDeploymentInput',
  withReadOnly(Type.Object(inputFields, { additionalProperties: false }), READ_ONLY_FIELDS),
);
export type AgentInput = Static<typeof AgentInputSchema>;

/**
 * The PATCH body: optional fields may be `null` (cleared, `capabilities` back to `[]`); required
 * ones (`name`, `owning_team`, `chargeback_rate` and its members) may be changed, not cleared;
 * `chargeback_rate` merges field by field; `capabilities` is replaced as a whole.
 */
export const AgentPatchSchema = Named(
  'AgentDeploymentUpdate',
  PatchSchemaOf(Type.Object(inputFields, { additionalProperties: false }), READ_ONLY_FIELDS),
);
export type AgentPatch = Patch<AgentInput>;

export const AgentSchema = Named(
  'AgentDeployment',
  Type.Object(
    {
      id: Type.String(),
      status: StringEnum(AGENT_STATUSES),
      name: Type.String(),
      description: Nullable(Type.String()),
      owning_team: Type.String(),
      capabilities: Type.Array(Type.String()),
      chargeback_rate: Type.Object({ amount_cents: Type.Integer(), unit: StringEnum(CHARGEBACK_UNITS) }),
      data_classification: StringEnum(DATA_CLASSIFICATIONS),
      artifact_count: Type.Integer({
        description: 'How many artifacts the agent has (`/v1/agents/{agentId}/artifacts`).',
      }),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
      retired_at: Nullable(
        Type.String({ format: 'date-time', description: 'When the agent was retired; `null` while active.' }),
      ),
    },
    { description: 'An agent deployment.' },
  ),
);
export type Agent = Static<typeof AgentSchema>;

export const AgentParamsSchema = Type.Object({ agentId: Type.String() });

export const AgentListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({ status: Type.Optional(StringEnum(AGENT_STATUSES)) }),
]);
