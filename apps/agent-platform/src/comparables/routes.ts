import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, errorResponses } from '@platform/http';
import { ComparablesParamsSchema, ComparablesSchema } from './schemas.js';
import { SELECTION, type ComparablesService } from './service.js';

export const comparablesRoutes: FastifyPluginAsync<{ comparables: ComparablesService }> = async (
  plugin,
  { comparables },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/agents/:agentId/comparables',
    {
      config: { scope: 'estimates:read' },
      schema: {
        tags: ['Cost estimates'],
        operationId: 'listAgentComparables',
        summary: "List an agent's comparables",
        description: `Comparable deployments of the agent, each with its similarity and the reason. ${SELECTION}`,
        params: ComparablesParamsSchema,
        response: { 200: ComparablesSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => comparables.of(request.auth.accountId, request.params.agentId),
  );
};
