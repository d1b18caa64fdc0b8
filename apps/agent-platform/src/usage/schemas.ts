import { Type, type Static } from '@sinclair/typebox';
import { Named, StringEnum } from '@platform/http';
import { CHARGEBACK_UNITS } from '../agents/index.js';

/** The largest batch `POST /agents/{id}/usage` takes. */
export const USAGE_BATCH_MAX = 1000;
/** How far in the future `occurred_at` may lie (clock skew of the reporting platform). */
export const USAGE_CLOCK_SKEW_MS = 5 * 60 * 1000;

export const UsageRecordInputSchema = Type.Object(
  {
    client_id: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The reporter’s id of the record; a record resent with the same `client_id` is a no-op.',
    }),
    team: Type.String({ minLength: 1, maxLength: 120, description: 'The consuming team.' }),
    quantity: Type.Number({
      exclusiveMinimum: 0,
      maximum: 999_999_999_999,
      description:
        'In `unit`, greater than 0, at most six decimals (e.g. `1.25` hours; for `per_1k_tokens`: thousands of tokens).',
    }),
    unit: StringEnum(CHARGEBACK_UNITS, {
      description: 'Must be the agent’s chargeback unit (else 422 `not_allowed`).',
    }),
    occurred_at: Type.String({
      format: 'date-time',
      description: 'RFC 3339 with an offset; at most 5 minutes in the future.',
    }),
  },
  { additionalProperties: false },
);
export type UsageRecordInput = Static<typeof UsageRecordInputSchema>;

export const UsageBatchSchema = Named(
  'UsageBatch',
  Type.Object(
    {
      records: Type.Array(UsageRecordInputSchema, {
        minItems: 1,
        maxItems: USAGE_BATCH_MAX,
        description: `1 to ${USAGE_BATCH_MAX} usage records.`,
      }),
    },
    { additionalProperties: false },
  ),
);
export type UsageBatch = Static<typeof UsageBatchSchema>;

export const UsageResultSchema = Named(
  'UsageBatchResult',
  Type.Object(
    {
      accepted: Type.Integer({ description: 'Records stored by this request.' }),
      duplicates: Type.Integer({
        description:
          'Records whose `client_id` was already stored for the agent (or repeated in the batch): nothing changed.',
      }),
    },
    { description: 'The outcome of a usage batch.' },
  ),
);
export type UsageResult = Static<typeof UsageResultSchema>;

export const UsageParamsSchema = Type.Object({ agentId: Type.String() });
