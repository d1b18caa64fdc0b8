import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, PageSchema, errorResponses } from '@platform/http';
import { CatalogEntrySchema } from '../catalog-entries/index.js';
import { CatalogQuerySchema } from './schemas.js';
import type { CatalogService } from './service.js';

export const catalogRoutes: FastifyPluginAsync<{ catalog: CatalogService }> = async (plugin, { catalog }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/catalog',
    {
      config: { scope: 'catalog:read' },
      schema: {
        tags: ['Catalog entries'],
        operationId: 'listCatalog',
        summary: 'List the internal catalog',
        description:
          "The internal catalog: the account's `published` catalog entries, newest first, one per agent (the entry published last; " +
          "publishing another takes the previous one out). Filter by `capability` (the entry's capabilities contain it) and `data_classification`.",
        querystring: CatalogQuerySchema,
        response: { 200: PageSchema(CatalogEntrySchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => catalog.list(request.auth.accountId, request.query),
  );
};
