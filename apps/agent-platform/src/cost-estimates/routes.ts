import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, errorResponses } from '@platform/http';
import {
  CostEstimateParamsSchema,
  CostEstimateQuerySchema,
  CostEstimateSchema,
  ProfileCostEstimatesSchema,
  ProfileEstimateQuerySchema,
} from './schemas.js';
import type { CostEstimateService } from './service.js';

const READ = 'estimates:read';
const tags = ['Cost estimates'];
const METHOD =
  'Expected cost a month = chargeback rate × expected quantity; recorded cost = the usage of each of the three full calendar months (UTC) ' +
  'before the current one × rate, with the mean and the range. Integer cents, rounded half up once. Units are never converted: ' +
  'usage in another unit than the rate’s is answered with `estimable: false` and the reason.';

export const costEstimateRoutes: FastifyPluginAsync<{ estimates: CostEstimateService }> = async (
  plugin,
  { estimates },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/agents/:agentId/cost-estimate',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getAgentCostEstimate',
        summary: "Estimate an agent's cost",
        description: `The agent’s monthly cost for an expected usage (\`quantity\` and \`unit\`, optional) and from its recorded usage. ${METHOD}`,
        params: CostEstimateParamsSchema,
        querystring: CostEstimateQuerySchema,
        response: { 200: CostEstimateSchema, ...errorResponses([...AUTH_ERRORS, 404, 422]) },
      },
    },
    async (request) => estimates.forAgent(request.auth.accountId, request.params.agentId, request.query),
  );

  app.get(
    '/cost-estimates',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listProfileCostEstimates',
        summary: 'List cost estimates for a capability profile',
        description:
          'For a capability profile: every active agent offering all its required capabilities and cleared for its data classification, ' +
          `estimated with the profile’s expected usage, and whether that fits the budget; cheapest first. ${METHOD}`,
        querystring: ProfileEstimateQuerySchema,
        response: { 200: ProfileCostEstimatesSchema, ...errorResponses([...AUTH_ERRORS, 404, 422]) },
      },
    },
    async (request) => estimates.forProfile(request.auth.accountId, request.query.profile_id),
  );
};
