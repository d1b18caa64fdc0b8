import { Type, type Static } from '@sinclair/typebox';
import { Named, PageQuerySchema, type Patch, PatchSchemaOf, StringEnum, withReadOnly } from '@platform/http';
import { CAPABILITY_NAME_PATTERN, CHARGEBACK_UNITS, DATA_CLASSIFICATIONS } from '../agents/index.js';

const MAX_INT = 2_147_483_647;

export const BudgetSchema = Type.Object(
  {
    monthly_limit_cents: Type.Integer({
      minimum: 0,
      maximum: MAX_INT,
      description: 'What the team may spend on the agent per month, in whole cents.',
    }),
    expected_usage: Type.Object(
      {
        quantity: Type.Integer({
          minimum: 1,
          maximum: MAX_INT,
          description: 'Units per month (for `per_1k_tokens`: thousands of tokens).',
        }),
        unit: StringEnum(CHARGEBACK_UNITS, {
          description:
            'The unit of `quantity`; the cost can be estimated when it is the unit of the agent’s chargeback rate.',
        }),
      },
      {
        additionalProperties: false,
        description: 'Expected usage per month; with the agent’s chargeback rate it gives the estimated monthly cost.',
      },
    ),
  },
  { additionalProperties: false },
);

const inputFields = {
  team: Type.String({ minLength: 1, maxLength: 120, description: 'The team whose needs these are.' }),
  name: Type.String({ minLength: 1, maxLength: 120 }),
  required_capabilities: Type.Optional(
    Type.Array(Type.String({ pattern: CAPABILITY_NAME_PATTERN }), {
      maxItems: 50,
      uniqueItems: true,
      default: [],
      description: 'Capability names the agent must offer (as in an agent’s `capabilities`); default `[]`.',
    }),
  ),
  data_classification: StringEnum(DATA_CLASSIFICATIONS, {
    description: 'The most sensitive data the team will pass to the agent.',
  }),
  budget: BudgetSchema,
};

export const CAPABILITY_PROFILE_READ_ONLY_FIELDS = ['id', 'created_at', 'updated_at'] as const;

export const CapabilityProfileInputSchema = Named(
  'CapabilityProfileInput',
  withReadOnly(Type.Object(inputFields, { additionalProperties: false }), CAPABILITY_PROFILE_READ_ONLY_FIELDS),
);
export type CapabilityProfileInput = Static<typeof CapabilityProfileInputSchema>;

/** Merge patch: `required_capabilities` is replaced as a whole (`null` → `[]`), `budget` merges field by field. */
export const CapabilityProfilePatchSchema = Named(
  'CapabilityProfileUpdate',
  PatchSchemaOf(Type.Object(inputFields, { additionalProperties: false }), CAPABILITY_PROFILE_READ_ONLY_FIELDS),
);
export type CapabilityProfilePatch = Patch<CapabilityProfileInput>;

export const CapabilityProfileSchema = Named(
  'CapabilityProfile',
  Type.Object(
    {
      id: Type.String(),
      team: Type.String(),
      name: Type.String(),
      required_capabilities: Type.Array(Type.String()),
      data_classification: StringEnum(DATA_CLASSIFICATIONS),
      budget: Type.Object({
        monthly_limit_cents: Type.Integer(),
        expected_usage: Type.Object({ quantity: Type.Integer(), unit: StringEnum(CHARGEBACK_UNITS) }),
      }),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    },
    { description: 'A capability profile: what a team needs from an agent.' },
  ),
);
export type CapabilityProfile = Static<typeof CapabilityProfileSchema>;

export const CapabilityProfileParamsSchema = Type.Object({ profileId: Type.String() });

export const CapabilityProfileListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({ team: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })) }),
]);
