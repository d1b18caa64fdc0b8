import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, PageSchema, errorResponses } from '@platform/http';
import type { BlobStorage } from '@platform/storage';
import { downloadResponses, sendDownload } from '@platform/uploads';
import {
  AgentCatalogEntryParamsSchema,
  CatalogEntryListQuerySchema,
  CatalogEntryParamsSchema,
  CatalogEntrySchema,
} from './schemas.js';
import type { CatalogEntryService } from './service.js';

const READ = 'catalog:read';
const WRITE = 'catalog:write';
const tags = ['Catalog entries'];

export const catalogEntryRoutes: FastifyPluginAsync<{ entries: CatalogEntryService; storage: BlobStorage }> = async (
  plugin,
  { entries, storage },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/agents/:agentId/catalog-entries',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'generateCatalogEntry',
        summary: 'Generate a catalog entry',
        description:
          "Copies the agent and its artifacts into a new catalog entry (status `generating`, the agent's next `version`) and renders its record " +
          '(PDF) in the background: `completed` with `catalog_entry.completed`, or `failed` with a reason. Later changes of the agent or its ' +
          'artifacts do not change the entry. A retired agent: 409 `conflict`.',
        params: AgentCatalogEntryParamsSchema,
        body: EmptyBodySchema,
        response: { 202: CatalogEntrySchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await entries.create(request.auth.accountId, request.params.agentId, request.log)),
  );

  app.get(
    '/catalog-entries',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listCatalogEntries',
        summary: 'List catalog entries',
        description:
          'Catalog entries of the account in any status, newest first, optionally of one agent (`agent_id`) or in one `status`.',
        querystring: CatalogEntryListQuerySchema,
        response: { 200: PageSchema(CatalogEntrySchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => entries.list(request.auth.accountId, request.query),
  );

  app.get(
    '/catalog-entries/:catalogEntryId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getCatalogEntry',
        summary: 'Get a catalog entry',
        params: CatalogEntryParamsSchema,
        response: { 200: CatalogEntrySchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => entries.get(request.auth.accountId, request.params.catalogEntryId),
  );

  app.get(
    '/catalog-entries/:catalogEntryId/record',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'downloadCatalogEntryRecord',
        summary: "Download a catalog entry's record",
        description:
          'The record (PDF), streamed, with `ETag`; 404 until the entry is `completed` (and for a `failed` one).',
        params: CatalogEntryParamsSchema,
        response: {
          ...downloadResponses('The record (`application/pdf`).', ['application/pdf']),
          ...errorResponses([...AUTH_ERRORS, 404]),
        },
      },
    },
    async (request, reply) => {
      const { catalogEntryId } = request.params;
      const { sha256 } = await entries.record(request.auth.accountId, catalogEntryId);
      return sendDownload(request, reply, storage, {
        sha256,
        contentType: 'application/pdf',
        filename: `catalog-record-${catalogEntryId}.pdf`,
        disposition: 'inline',
      });
    },
  );

  app.post(
    '/catalog-entries/:catalogEntryId/publish',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'publishCatalogEntry',
        summary: 'Publish a catalog entry',
        description:
          'Puts a `completed` (or `withdrawn`) entry into the internal catalog; anything else, or an entry of a retired agent, is 409. First the ' +
          'catalog rule on the entry\'s snapshot: each unmet requirement is one detail `{field, reason: "missing"}` of one 422 `validation_failed` — ' +
          '`agent.description` (none or blank), `agent.capabilities` (none), `artifacts` (no artifact of kind `model_card`). Then the entry is ' +
          '`published` with `catalog_entry.published`, and any other published entry of the agent is `withdrawn`: the catalog shows one entry per agent.',
        params: CatalogEntryParamsSchema,
        body: EmptyBodySchema,
        response: { 200: CatalogEntrySchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => entries.publish(request.auth.accountId, request.params.catalogEntryId),
  );

  app.post(
    '/catalog-entries/:catalogEntryId/withdraw',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'withdrawCatalogEntry',
        summary: 'Withdraw a catalog entry',
        description:
          'Takes a `published` entry out of the internal catalog (status `withdrawn`; again a no-op). Any other status: 409 `invalid_transition`.',
        params: CatalogEntryParamsSchema,
        body: EmptyBodySchema,
        response: { 200: CatalogEntrySchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => entries.withdraw(request.auth.accountId, request.params.catalogEntryId),
  );
};
