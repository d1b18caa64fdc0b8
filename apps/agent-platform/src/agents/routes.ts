import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, PageSchema, errorResponses } from '@platform/http';
import { AgentInputSchema, AgentListQuerySchema, AgentParamsSchema, AgentPatchSchema, AgentSchema } from './schemas.js';
import type { AgentService } from './service.js';
import { AGENT_TRANSITIONS, type AgentAction } from './transitions.js';

const READ = 'agents:read';
const WRITE = 'agents:write';
const tags = ['Agents'];

export const agentRoutes: FastifyPluginAsync<{ agents: AgentService }> = async (plugin, { agents }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/agents',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'createAgent',
        summary: 'Create an agent deployment',
        description: 'Registers an agent deployment in status `active`.',
        body: AgentInputSchema,
        response: { 201: AgentSchema, ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => reply.status(201).send(await agents.create(request.auth.accountId, request.body)),
  );

  app.get(
    '/agents',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listAgents',
        summary: 'List agent deployments',
        description: 'Agent deployments of the account, newest first, optionally filtered by `status`.',
        querystring: AgentListQuerySchema,
        response: { 200: PageSchema(AgentSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => agents.list(request.auth.accountId, request.query),
  );

  app.get(
    '/agents/:agentId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getAgent',
        summary: 'Get an agent deployment',
        params: AgentParamsSchema,
        response: { 200: AgentSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => agents.get(request.auth.accountId, request.params.agentId),
  );

  app.patch(
    '/agents/:agentId',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'updateAgent',
        summary: 'Update an agent deployment',
        description:
          'Changes individual fields (JSON merge patch): absent fields stay, `null` clears an optional field, ' +
          '`chargeback_rate` merges field by field, `capabilities` is replaced as a whole; `name`, `owning_team` and ' +
          '`chargeback_rate` cannot be cleared. A retired agent cannot be changed (409 `conflict`).',
        params: AgentParamsSchema,
        body: AgentPatchSchema,
        response: { 200: AgentSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => agents.update(request.auth.accountId, request.params.agentId, request.body),
  );

  for (const [action, { from, to, summary }] of Object.entries(AGENT_TRANSITIONS)) {
    app.post(
      `/agents/:agentId/${action}`,
      {
        config: { scope: WRITE },
        schema: {
          tags,
          operationId: `${action}Agent`,
          summary: `${action[0]!.toUpperCase()}${action.slice(1)} an agent deployment`,
          description: `${summary} Status ${from.join(' / ')} → ${to}; from any other status 409 \`invalid_transition\`.`,
          params: AgentParamsSchema,
          body: EmptyBodySchema,
          response: { 200: AgentSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
        },
      },
      async (request) => agents.transition(request.auth.accountId, request.params.agentId, action as AgentAction),
    );
  }
};
