import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, StringEnum } from '@platform/http';
import { CHARGEBACK_UNITS, DATA_CLASSIFICATIONS } from '../agents/index.js';

const Unit = StringEnum(CHARGEBACK_UNITS);

export const ComparableSchema = Named(
  'AgentComparable',
  Type.Object({
    agent_id: Type.String(),
    name: Type.String(),
    similarity: Type.Number({
      description:
        'Jaccard similarity of the capabilities, |A ∩ B| / |A ∪ B|, rounded to four decimals (the exact fraction ranks).',
    }),
    shared_capabilities: Type.Array(Type.String()),
    data_classification: StringEnum(DATA_CLASSIFICATIONS),
    rate: Type.Object({ amount_cents: Type.Integer(), unit: Unit }),
    normalised: Nullable(
      Type.Object(
        {
          unit: Unit,
          amount_cents: Type.Integer(),
          difference_cents: Type.Integer({ description: 'This rate minus the agent’s rate.' }),
        },
        {
          description:
            'The rate in the agent’s unit; `null` when the unit differs (no conversion is defined; the reason says so).',
        },
      ),
    ),
    reason: Type.String(),
  }),
);

export const ComparablesSchema = Named(
  'AgentComparables',
  Type.Object(
    {
      agent_id: Type.String(),
      method_version: Type.String(),
      capabilities: Type.Array(Type.String()),
      data_classification: StringEnum(DATA_CLASSIFICATIONS),
      rate: Type.Object({ amount_cents: Type.Integer(), unit: Unit }),
      selection: Type.String(),
      data: Type.Array(ComparableSchema),
    },
    { description: 'Comparable deployments of an agent, ranked.' },
  ),
);
export type Comparables = Static<typeof ComparablesSchema>;

export const ComparablesParamsSchema = Type.Object({ agentId: Type.String() });
