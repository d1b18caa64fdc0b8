import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, PageSchema, errorResponses } from '@platform/http';
import {
  AccessRequestInputSchema,
  AccessRequestListQuerySchema,
  AccessRequestParamsSchema,
  AccessRequestSchema,
  ScoreSchema,
} from './schemas.js';
import type { AccessRequestService } from './service.js';

const READ = 'requests:read';
const WRITE = 'requests:write';
const tags = ['Access requests'];

export const accessRequestRoutes: FastifyPluginAsync<{ requests: AccessRequestService }> = async (
  plugin,
  { requests },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/access-requests',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'createAccessRequest',
        summary: 'Create an access request',
        description:
          'A team requests an active agent, with an existing capability profile of the team (`profile_id`) or a new one inline (`profile`). ' +
          'The request is scored at once: knockouts first (agent not active, agent not cleared for the data classification, estimated cost more ' +
          'than 50 % above budget), then weighted criteria (capabilities 60, cost 40). Emits `request.received` and `request.scored`.',
        body: AccessRequestInputSchema,
        response: { 201: AccessRequestSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => reply.status(201).send(await requests.create(request.auth.accountId, request.body)),
  );

  app.get(
    '/access-requests',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listAccessRequests',
        summary: 'List access requests',
        description: 'Best score first, then newest; optionally for one `agent_id` and/or one `team`.',
        querystring: AccessRequestListQuerySchema,
        response: { 200: PageSchema(AccessRequestSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => requests.list(request.auth.accountId, request.query),
  );

  app.get(
    '/access-requests/:requestId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getAccessRequest',
        summary: 'Get an access request',
        params: AccessRequestParamsSchema,
        response: { 200: AccessRequestSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => requests.get(request.auth.accountId, request.params.requestId),
  );

  app.get(
    '/access-requests/:requestId/score',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getAccessRequestScore',
        summary: "Get an access request's score",
        description:
          'The latest score with its explanation: every criterion with weight, points, outcome and reason, and the version of the weights.',
        params: AccessRequestParamsSchema,
        response: { 200: ScoreSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => requests.score(request.auth.accountId, request.params.requestId),
  );

  app.post(
    '/access-requests/:requestId/score',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'scoreAccessRequest',
        summary: 'Score an access request again',
        description:
          'Scores the request again with the agent and the capability profile as they are now, replaces the stored score and emits `request.scored`.',
        params: AccessRequestParamsSchema,
        body: EmptyBodySchema,
        response: { 200: ScoreSchema, ...errorResponses([...AUTH_ERRORS, 404, ...BODY_ERRORS]) },
      },
    },
    async (request) => requests.rescore(request.auth.accountId, request.params.requestId),
  );
};
