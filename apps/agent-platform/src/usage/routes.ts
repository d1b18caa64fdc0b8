import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, errorResponses } from '@platform/http';
import { UsageBatchSchema, UsageParamsSchema, UsageResultSchema, USAGE_BATCH_MAX } from './schemas.js';
import type { UsageService } from './service.js';

const tags = ['Usage'];

export const usageRoutes: FastifyPluginAsync<{ usage: UsageService }> = async (plugin, { usage }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/agents/:agentId/usage',
    {
      config: { scope: 'agents:write' },
      schema: {
        tags,
        operationId: 'recordAgentUsage',
        summary: "Record an agent's usage",
        description:
          `Records 1 to ${USAGE_BATCH_MAX} usage records of the agent per consuming team, in the agent's chargeback unit. ` +
          'Idempotent per record: a `client_id` already stored for the agent is skipped and counted in `duplicates`. ' +
          'Invalid records are reported per record (`records.3.quantity`) and nothing is stored; a retired agent is 409 `conflict`.',
        params: UsageParamsSchema,
        body: UsageBatchSchema,
        response: { 200: UsageResultSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => usage.ingest(request.auth.accountId, request.params.agentId, request.body),
  );
};
