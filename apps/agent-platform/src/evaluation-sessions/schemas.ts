import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum, withReadOnly } from '@platform/http';
import { SCHEDULE_STATUSES, TimeRangeFields, scheduleViewFields } from '@platform/scheduling';
import { SESSION_CANCEL_REASONS, SESSION_SIDES } from './kind.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Team = Type.String({
  minLength: 1,
  maxLength: 120,
  description: "The evaluating team (a team's name, never a person's).",
});
export const EVALUATOR_ROLE_PATTERN = '^[a-z][a-z0-9_]{0,63}$';
export const MAX_EVALUATORS = 50;

export const EvaluationSessionInputSchema = Named(
  'EvaluationSessionInput',
  withReadOnly(
    Type.Object(
      {
        agent_id: {
          ...Id,
          description: "An active agent of the account (another account's or a missing one: 404; a retired one: 409).",
        },
        team: Team,
        access_request_id: Type.Optional({
          ...Id,
          description:
            "The team's access request the session evaluates: an access request of the account for the same `agent_id` and `team` (422 otherwise; a missing one: 404).",
        }),
        ...TimeRangeFields,
        evaluator_roles: Type.Optional(
          Type.Array(Type.String({ pattern: EVALUATOR_ROLE_PATTERN }), {
            maxItems: MAX_EVALUATORS,
            description:
              'Roles of the evaluators, one entry per evaluator whose role is known (e.g. `["domain_expert", "security_reviewer"]`; lower case, digits, `_`). Roles, never people.',
          }),
        ),
        evaluator_count: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: MAX_EVALUATORS,
            description:
              'How many evaluators take part; default: the number of `evaluator_roles`, and never fewer than that. One of both is required.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    [
      'id',
      'status',
      'sequence',
      'history',
      'time_zone',
      'confirmed_by',
      'confirmed_at',
      'cancelled_by',
      'cancel_reason',
      'cancelled_at',
      'completed_at',
      'created_at',
      'updated_at',
    ],
  ),
);
export type EvaluationSessionInput = Static<typeof EvaluationSessionInputSchema>;

export const EvaluationSessionSchema = Named(
  'EvaluationSession',
  Type.Object(
    {
      id: Type.String(),
      agent_id: Type.String(),
      team: Type.String(),
      access_request_id: Nullable(Type.String()),
      evaluator_roles: Type.Array(Type.String(), {
        description: 'Roles of the evaluators (possibly fewer than `evaluator_count`, possibly none).',
      }),
      evaluator_count: Type.Integer({ minimum: 1 }),
      ...scheduleViewFields(SESSION_SIDES, SESSION_CANCEL_REASONS),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    },
    { description: 'An evaluation session of an agent with a team: ids, times and roles, no personal data.' },
  ),
);
export type EvaluationSession = Static<typeof EvaluationSessionSchema>;

export const SessionParamsSchema = Type.Object({ sessionId: Type.String() });

export const ConfirmSessionSchema = Named(
  'EvaluationSessionConfirm',
  Type.Object(
    { by: StringEnum(SESSION_SIDES, { description: "The side that confirms: the agent's `provider` or the `team`." }) },
    { additionalProperties: false },
  ),
);
export const RescheduleSessionSchema = Named(
  'EvaluationSessionReschedule',
  Type.Object(TimeRangeFields, { additionalProperties: false }),
);
export const CancelSessionSchema = Named(
  'EvaluationSessionCancel',
  Type.Object(
    {
      by: StringEnum(SESSION_SIDES, { description: 'The side that cancels.' }),
      reason: StringEnum(SESSION_CANCEL_REASONS, {
        description:
          '`team_declined`, `provider_unavailable`, `agent_retired` (also set by the platform when the agent is retired) or `other`. A code only: no free text is stored.',
      }),
    },
    { additionalProperties: false },
  ),
);

export const SessionListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({
    agent_id: Type.Optional(Id),
    status: Type.Optional(StringEnum(SCHEDULE_STATUSES)),
    from: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only sessions starting at or after this time.' }),
    ),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Only sessions starting before this time.' })),
  }),
]);
export type SessionListQuery = Static<typeof SessionListQuerySchema>;
