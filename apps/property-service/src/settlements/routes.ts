import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, PageSchema, errorResponses } from '@platform/http';
import { SettlementListQuerySchema, SettlementParamsSchema, SettlementSchema } from './schemas.js';
import type { SettlementService } from './service.js';

const READ = 'commissions:read';
const tags = ['Settlements'];
const HOW =
  'A settlement is created when a property with commission terms is marked sold or rented, on the recorded transaction price and day: ' +
  'one line per paying party (base × percentage or months, net, VAT from the dated rate table, gross), all in integer cents, each rounded once half away from zero.';

export const settlementRoutes: FastifyPluginAsync<{ settlements: SettlementService }> = async (
  plugin,
  { settlements },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/settlements',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listSettlements',
        summary: 'List commission settlements',
        description: `Commission settlements of the account, newest first, optionally of one property (\`property_id\`). ${HOW}`,
        querystring: SettlementListQuerySchema,
        response: { 200: PageSchema(SettlementSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => settlements.list(request.auth.accountId, request.query),
  );

  app.get(
    '/settlements/:settlementId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getSettlement',
        summary: 'Get a commission settlement',
        description: `One commission settlement with every line, the rules version and the regime that applied. ${HOW}`,
        params: SettlementParamsSchema,
        response: { 200: SettlementSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => settlements.get(request.auth.accountId, request.params.settlementId),
  );
};
