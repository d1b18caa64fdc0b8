import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, PageSchema, errorResponses } from '@platform/http';
import {
  MarkRentedBodySchema,
  MarkSoldBodySchema,
  PropertyInputSchema,
  PropertyListQuerySchema,
  PropertyParamsSchema,
  PropertyPatchSchema,
  PropertySchema,
} from './schemas.js';
import type { PropertyService, TransactionGiven } from './service.js';
import { PROPERTY_TRANSITIONS, type PropertyAction } from './transitions.js';

const READ = 'properties:read';
const WRITE = 'properties:write';
const tags = ['Properties'];

export const propertyRoutes: FastifyPluginAsync<{ properties: PropertyService }> = async (plugin, { properties }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/properties',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'createProperty',
        summary: 'Create a property',
        description: 'Creates a property in status `draft`.',
        body: PropertyInputSchema,
        response: { 201: PropertySchema, ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => reply.status(201).send(await properties.create(request.auth.accountId, request.body)),
  );

  app.get(
    '/properties',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listProperties',
        summary: 'List properties',
        description: 'Properties of the account, newest first, optionally filtered by `status` and `type`.',
        querystring: PropertyListQuerySchema,
        response: { 200: PageSchema(PropertySchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => properties.list(request.auth.accountId, request.query),
  );

  app.get(
    '/properties/:propertyId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getProperty',
        summary: 'Get a property',
        params: PropertyParamsSchema,
        response: { 200: PropertySchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => properties.get(request.auth.accountId, request.params.propertyId),
  );

  app.patch(
    '/properties/:propertyId',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'updateProperty',
        summary: 'Update a property',
        description:
          'Changes individual fields (JSON merge patch): absent fields stay, `null` clears an optional field, ' +
          '`address`, `energy_certificate` and `commission` merge field by field; `type`, `title` and `address` cannot be cleared. ' +
          'Generated listings do not change.',
        params: PropertyParamsSchema,
        body: PropertyPatchSchema,
        response: { 200: PropertySchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => properties.update(request.auth.accountId, request.params.propertyId, request.body),
  );

  // mark-sold and mark-rented take the transaction (optional); the other actions no body.
  const bodies: Partial<Record<PropertyAction, typeof MarkSoldBodySchema | typeof MarkRentedBodySchema>> = {
    'mark-sold': MarkSoldBodySchema,
    'mark-rented': MarkRentedBodySchema,
  };
  const titles: Record<PropertyAction, string> = {
    activate: 'Activate a property',
    reserve: 'Reserve a property',
    release: 'Release a reserved property',
    'mark-sold': 'Mark a property sold',
    'mark-rented': 'Mark a property rented',
    relist: 'Relist a property',
    archive: 'Archive a property',
    restore: 'Restore an archived property',
  };
  for (const [action, { from, to, summary }] of Object.entries(PROPERTY_TRANSITIONS)) {
    app.post(
      `/properties/:propertyId/${action}`,
      {
        config: { scope: WRITE },
        schema: {
          tags,
          operationId: `${action.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase())}Property`,
          summary: titles[action as PropertyAction],
          description: `${summary} Status ${from.join(' / ')} → ${to}; from any other status 409 \`invalid_transition\`.`,
          params: PropertyParamsSchema,
          body: bodies[action as PropertyAction] ?? EmptyBodySchema,
          response: { 200: PropertySchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
        },
      },
      async (request) =>
        properties.transition(
          request.auth.accountId,
          request.params.propertyId,
          action as PropertyAction,
          request.body as TransactionGiven | null,
        ),
    );
  }
};
