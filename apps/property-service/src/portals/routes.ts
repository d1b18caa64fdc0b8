import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, PageSchema, errorResponses } from '@platform/http';
import { ChannelParamsSchema } from '../channels/index.js';
import { PortalStatusSchema, PortalTransferSchema, TransferListQuerySchema } from './schemas.js';
import type { PortalService } from './service.js';

const READ = 'listings:read';
const WRITE = 'listings:write';
const tags = ['Channels'];

export const portalRoutes: FastifyPluginAsync<{ portals: PortalService }> = async (plugin, { portals }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/channels/:channelId/portal-status',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getPortalStatus',
        summary: "Get a portal channel's transfer status",
        description:
          'Where the transfers of a `portal` channel stand: per property, the listing the portal should show or take off (`aktion`) and whether it has it ' +
          '(`pending`, `transferred`, `failed` with `reason`); whether a full transfer is due, failures in a row and the next attempt, or why it halted. ' +
          '409 for a channel of another type.',
        params: ChannelParamsSchema,
        response: { 200: PortalStatusSchema, ...errorResponses([...AUTH_ERRORS, 404, 409]) },
      },
    },
    async (request) => portals.status(request.auth.accountId, request.params.channelId),
  );

  app.get(
    '/channels/:channelId/transfers',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listPortalTransfers',
        summary: "List a portal channel's transfers",
        description: 'The ZIP files sent (or tried) to the portal, newest first. 409 for a channel of another type.',
        params: ChannelParamsSchema,
        querystring: TransferListQuerySchema,
        response: { 200: PageSchema(PortalTransferSchema), ...errorResponses([...AUTH_ERRORS, 404, 409, 422]) },
      },
    },
    async (request) => portals.transfers(request.auth.accountId, request.params.channelId, request.query),
  );

  app.post(
    '/channels/:channelId/retransfer',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'retransferPortalChannel',
        summary: 'Transfer everything of a portal channel again',
        description:
          'Asks for a full transfer (`umfang="VOLL"`: every listing live on the channel; the portal takes off what the file does not hold) now, ' +
          'with the failures in a row forgotten and a halted channel resumed. The worker sends it; follow it in `portal-status` and the events ' +
          '`portal_transfer.succeeded` / `portal_transfer.failed`. 409 for a channel of another type.',
        params: ChannelParamsSchema,
        body: EmptyBodySchema,
        response: { 202: PortalStatusSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await portals.retransfer(request.auth.accountId, request.params.channelId)),
  );
};
