import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, Named, PageSchema, errorResponses } from '@platform/http';
import { AppointmentSchema } from '../appointments/index.js';
import {
  PropertySlotsParamsSchema,
  ViewingSlotInputSchema,
  ViewingSlotListQuerySchema,
  ViewingSlotParamsSchema,
  ViewingSlotSchema,
} from './schemas.js';
import type { ViewingSlotService } from './service.js';

// The spec names one scope for viewings: `appointments:write` covers reading them too.
const SCOPE = 'appointments:write';
const READS = 'Reading needs `appointments:write` as well (the spec names no read scope).';
const tags = ['Viewing slots'];

export const viewingSlotRoutes: FastifyPluginAsync<{ slots: ViewingSlotService }> = async (plugin, { slots }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/properties/:propertyId/viewing-slots',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'createViewingSlot',
        summary: 'Create a viewing slot',
        description:
          'Offers a time for viewings to up to `capacity` prospects. 422 for times in the past, an end not after the start or longer than 8 h; ' +
          '409 `conflict` when the host has another open slot then (`details[].conflicting_id`) or the property is sold, let or archived.',
        params: PropertySlotsParamsSchema,
        body: ViewingSlotInputSchema,
        response: { 201: ViewingSlotSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await slots.create(request.auth.accountId, request.params.propertyId, request.body)),
  );

  app.get(
    '/properties/:propertyId/viewing-slots',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'listViewingSlots',
        summary: "List a property's viewing slots",
        description: `The property's slots, newest first. ${READS}`,
        params: PropertySlotsParamsSchema,
        querystring: ViewingSlotListQuerySchema,
        response: { 200: PageSchema(ViewingSlotSchema), ...errorResponses([...AUTH_ERRORS, 404, 422]) },
      },
    },
    async (request) => slots.list(request.auth.accountId, request.params.propertyId, request.query),
  );

  app.get(
    '/viewing-slots/:slotId',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'getViewingSlot',
        summary: 'Get a viewing slot',
        description: READS,
        params: ViewingSlotParamsSchema,
        response: { 200: ViewingSlotSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => slots.get(request.auth.accountId, request.params.slotId),
  );

  app.post(
    '/viewing-slots/:slotId/cancel',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'cancelViewingSlot',
        summary: 'Cancel a viewing slot',
        description:
          'Cancels the slot and its open appointments (`by: agent`, `agent_unavailable`), each with `appointment.cancelled`.',
        params: ViewingSlotParamsSchema,
        body: EmptyBodySchema,
        response: { 200: ViewingSlotSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => slots.cancel(request.auth.accountId, request.params.slotId),
  );

  app.post(
    '/viewing-slots/:slotId/allocate',
    {
      config: { scope: SCOPE },
      schema: {
        tags,
        operationId: 'allocateViewingSlot',
        summary: 'Allocate a viewing slot',
        description:
          "Invites the property's inquiries **in score order** (ties: the earlier inquiry) into the free places: each gets a `proposed` appointment " +
          "at the slot's time. Skipped: knocked-out inquiries, anonymised prospects, prospects already invited or booked for this property " +
          '(or who declined), and prospects with another appointment then. Returns the new appointments (none when the slot is full).',
        params: ViewingSlotParamsSchema,
        body: EmptyBodySchema,
        response: {
          200: Named(
            'ViewingSlotAllocation',
            Type.Object(
              { data: Type.Array(AppointmentSchema) },
              { description: 'The appointments created, best score first.' },
            ),
          ),
          ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]),
        },
      },
    },
    async (request) => slots.allocate(request.auth.accountId, request.params.slotId),
  );
};
