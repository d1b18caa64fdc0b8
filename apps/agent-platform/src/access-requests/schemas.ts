import { Type, type Static } from '@sinclair/typebox';
import { Named, PageQuerySchema, StringEnum, withReadOnly } from '@platform/http';
import { CapabilityProfileInputSchema } from '../capability-profiles/index.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });

const { team: _team, ...inlineProfileFields } = CapabilityProfileInputSchema.properties;

export const AccessRequestInputSchema = Named(
  'AccessRequestInput',
  withReadOnly(
    Type.Object(
      {
        agent_id: Id,
        team: Type.String({
          minLength: 1,
          maxLength: 120,
          description: 'The requesting team; it must be the team of the capability profile.',
        }),
        purpose: Type.String({
          minLength: 1,
          maxLength: 2000,
          description: 'What the team wants to use the agent for.',
        }),
        profile_id: Type.Optional({ ...Id, description: 'An existing capability profile of the team …' }),
        profile: Type.Optional(
          Type.Object(inlineProfileFields, {
            additionalProperties: false,
            description: '… or a new one, saved for the request’s `team` (exactly one of both).',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    ['id', 'score', 'scored_at', 'created_at'],
  ),
);
export type AccessRequestInput = Static<typeof AccessRequestInputSchema>;

export const ScoreSummarySchema = Type.Object(
  {
    total: Type.Integer({ minimum: 0, maximum: 100 }),
    weights_version: Type.String(),
    knocked_out: Type.Boolean(),
  },
  { description: 'The latest score; `GET /access-requests/{requestId}/score` explains it.' },
);

export const AccessRequestSchema = Named(
  'AccessRequest',
  Type.Object(
    {
      id: Type.String(),
      agent_id: Type.String(),
      team: Type.String(),
      purpose: Type.String(),
      profile_id: Type.String(),
      score: ScoreSummarySchema,
      scored_at: Type.String({ format: 'date-time' }),
      created_at: Type.String({ format: 'date-time' }),
    },
    { description: 'A team’s request to use an agent.' },
  ),
);
export type AccessRequest = Static<typeof AccessRequestSchema>;

export const ScoreSchema = Named(
  'AccessRequestScore',
  Type.Object(
    {
      request_id: Type.String(),
      total: Type.Integer({ minimum: 0, maximum: 100 }),
      weights_version: Type.String({ description: 'Version of the weights and rules used.' }),
      knocked_out: Type.Boolean({ description: 'A knockout criterion applies; the total is 0.' }),
      knockouts: Type.Array(Type.Object({ criterion: Type.String(), reason: Type.String() })),
      criteria: Type.Array(
        Type.Object({
          criterion: Type.String(),
          weight: Type.Integer(),
          points: Type.Integer(),
          outcome: StringEnum(['met', 'deviating']),
          reason: Type.String(),
        }),
        { description: 'The points of all criteria add up to exactly `total`.' },
      ),
      scored_at: Type.String({ format: 'date-time' }),
    },
    {
      description: 'The traceable score of an access request: knockouts first, then weighted criteria with tolerances.',
    },
  ),
);
export type Score = Static<typeof ScoreSchema>;

export const AccessRequestParamsSchema = Type.Object({ requestId: Type.String() });

export const AccessRequestListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({ agent_id: Type.Optional(Id), team: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })) }),
]);
