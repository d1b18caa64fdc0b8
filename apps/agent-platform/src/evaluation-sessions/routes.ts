import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, PageSchema, errorResponses } from '@platform/http';
import {
  CancelSessionSchema,
  ConfirmSessionSchema,
  EvaluationSessionInputSchema,
  EvaluationSessionSchema,
  RescheduleSessionSchema,
  SessionListQuerySchema,
  SessionParamsSchema,
} from './schemas.js';
import type { EvaluationSessionService } from './service.js';

// The specification names no read scope for sessions: reading needs `sessions:write` as well.
const SCOPE = 'sessions:write';
const READING =
  'Every session operation, reading included, needs `sessions:write`: the specification names no read scope for sessions.';
const OVERLAP =
  'A time overlapping an open (`proposed` or `confirmed`) session of the same agent or of the same team is 409 `conflict` with the detail ' +
  '`{field: "agent_id" | "team", reason: "overlaps", conflicting_id}` naming the session already booked.';
const TIMES = 'A start in the past, an end not after the start or more than 8 hours: 422 `validation_failed`.';
const tags = ['Evaluation sessions'];

export const evaluationSessionRoutes: FastifyPluginAsync<{ sessions: EvaluationSessionService }> = async (
  plugin,
  { sessions },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const actionErrors = errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]);

  app.post(
    '/evaluation-sessions',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'createEvaluationSession',
        summary: 'Create an evaluation session',
        description:
          "Proposes an evaluation session of an active agent with a team (status `proposed`), optionally for the team's access request. The evaluators are " +
          'given as roles (`evaluator_roles`), as a number (`evaluator_count`) or both. An agent of another account or none: 404; a retired agent: 409 `conflict`. ' +
          `${TIMES} ${OVERLAP} ${READING}`,
        body: EvaluationSessionInputSchema,
        response: { 201: EvaluationSessionSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => reply.status(201).send(await sessions.create(request.auth.accountId, request.body)),
  );

  app.get(
    '/evaluation-sessions',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'listEvaluationSessions',
        summary: 'List evaluation sessions',
        description: `Sessions of the account, newest first, optionally of one \`agent_id\`, in one \`status\`, starting in [\`from\`, \`to\`). ${READING}`,
        querystring: SessionListQuerySchema,
        response: { 200: PageSchema(EvaluationSessionSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => sessions.list(request.auth.accountId, request.query),
  );

  app.get(
    '/evaluation-sessions/:sessionId',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'getEvaluationSession',
        summary: 'Get an evaluation session',
        description: `The session with its times in UTC, the account's \`time_zone\` and the history of earlier times. ${READING}`,
        params: SessionParamsSchema,
        response: { 200: EvaluationSessionSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => sessions.get(request.auth.accountId, request.params.sessionId),
  );

  app.get(
    '/evaluation-sessions/:sessionId/ics',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'getEvaluationSessionCalendarEvent',
        summary: 'Download an evaluation session as iCalendar',
        description:
          "The session as an iCalendar event (`text/calendar`) in the account's time zone: `UID` stays the same across reschedules, `SEQUENCE` " +
          `rises with each reschedule and the cancellation, and a cancelled session is a \`METHOD:CANCEL\`. ${READING}`,
        params: SessionParamsSchema,
        response: {
          200: { description: 'The iCalendar file.', content: { 'text/calendar': { schema: Type.String() } } },
          ...errorResponses([...AUTH_ERRORS, 404]),
        },
      },
    },
    async (request, reply) => {
      const { sessionId } = request.params;
      const body = await sessions.ics(request.auth.accountId, sessionId);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="evaluation-session-${sessionId}.ics"`)
        .send(body);
    },
  );

  app.post(
    '/evaluation-sessions/:sessionId/confirm',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'confirmEvaluationSession',
        summary: 'Confirm an evaluation session',
        description: `A side (\`by\`: \`provider\` or \`team\`) confirms the session: \`proposed\` → \`confirmed\`, with \`session.confirmed\`. From any other status 409 \`invalid_transition\`. ${READING}`,
        params: SessionParamsSchema,
        body: ConfirmSessionSchema,
        response: { 200: EvaluationSessionSchema, ...actionErrors },
      },
    },
    async (request) => sessions.confirm(request.auth.accountId, request.params.sessionId, request.body.by),
  );

  app.post(
    '/evaluation-sessions/:sessionId/reschedule',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'rescheduleEvaluationSession',
        summary: 'Reschedule an evaluation session',
        description:
          'Moves a `proposed` or `confirmed` session to a new time: the old one goes into `history`, `sequence` rises and the session is `proposed` again ' +
          `(to be confirmed anew; no event). Another status: 409 \`invalid_transition\`. ${TIMES} ${OVERLAP} ${READING}`,
        params: SessionParamsSchema,
        body: RescheduleSessionSchema,
        response: { 200: EvaluationSessionSchema, ...actionErrors },
      },
    },
    async (request) => sessions.reschedule(request.auth.accountId, request.params.sessionId, request.body),
  );

  app.post(
    '/evaluation-sessions/:sessionId/cancel',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'cancelEvaluationSession',
        summary: 'Cancel an evaluation session',
        description:
          'A side cancels a `proposed` or `confirmed` session with a reason code: `cancelled`, `sequence` rises (the `.ics` becomes a CANCEL), the time is ' +
          'free again, and `session.cancelled` is emitted. Another status: 409 `invalid_transition`. Retiring the agent cancels its open sessions the same ' +
          `way (\`by: provider\`, \`reason: agent_retired\`). ${READING}`,
        params: SessionParamsSchema,
        body: CancelSessionSchema,
        response: { 200: EvaluationSessionSchema, ...actionErrors },
      },
    },
    async (request) =>
      sessions.cancel(request.auth.accountId, request.params.sessionId, request.body.by, request.body.reason),
  );

  app.post(
    '/evaluation-sessions/:sessionId/complete',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'completeEvaluationSession',
        summary: 'Complete an evaluation session',
        description: `Records that the session took place: \`confirmed\` → \`completed\`. From any other status 409 \`invalid_transition\`. ${READING}`,
        params: SessionParamsSchema,
        body: EmptyBodySchema,
        response: { 200: EvaluationSessionSchema, ...actionErrors },
      },
    },
    async (request) => sessions.complete(request.auth.accountId, request.params.sessionId),
  );
};
