import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, PageSchema, errorResponses } from '@platform/http';
import {
  ChannelInputSchema,
  ChannelListQuerySchema,
  ChannelParamsSchema,
  ChannelPatchSchema,
  ChannelSchema,
} from './schemas.js';
import type { ChannelService } from './service.js';

const READ = 'listings:read';
const WRITE = 'listings:write';
const tags = ['Channels'];

export const channelRoutes: FastifyPluginAsync<{ channels: ChannelService }> = async (plugin, { channels }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/channels',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'createChannel',
        summary: 'Create a channel',
        description:
          "Adds a publication channel: the website feed or an OpenImmo feed, with the agency's business `contact` the feed shows (an `openimmo` " +
          'channel needs one to publish); its `feed_url` is public (the token in it is the secret).',
        body: ChannelInputSchema,
        response: { 201: ChannelSchema, ...errorResponses([...AUTH_ERRORS, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => reply.status(201).send(await channels.create(request.auth.accountId, request.body)),
  );

  app.get(
    '/channels',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listChannels',
        summary: 'List channels',
        querystring: ChannelListQuerySchema,
        response: { 200: PageSchema(ChannelSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => channels.list(request.auth.accountId, request.query),
  );

  app.get(
    '/channels/:channelId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getChannel',
        summary: 'Get a channel',
        params: ChannelParamsSchema,
        response: { 200: ChannelSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => channels.get(request.auth.accountId, request.params.channelId),
  );

  app.patch(
    '/channels/:channelId',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'updateChannel',
        summary: 'Update a channel',
        description:
          'Renames the channel or changes its agency `contact` (a JSON merge patch: members merge, `null` clears one, `contact: null` removes the contact); ' +
          'the merged contact must still have a `name` and an `email` or a `phone` (422 otherwise). An `openimmo` channel with live listings keeps a contact (409 on removing it): ' +
          'portals show its listings only with one.',
        params: ChannelParamsSchema,
        body: ChannelPatchSchema,
        response: { 200: ChannelSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => channels.update(request.auth.accountId, request.params.channelId, request.body),
  );

  app.post(
    '/channels/:channelId/rotate-feed-token',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'rotateChannelFeedToken',
        summary: "Rotate a channel's feed token",
        description:
          'Gives the channel a new feed token and answers the channel with its new `feed_url`; the old token is refused (404) from this moment ' +
          "on, also for cached feeds. Hand the new URL to the feed's consumer. Event `channel.feed_token_rotated` (never with the token).",
        params: ChannelParamsSchema,
        body: EmptyBodySchema,
        response: { 200: ChannelSchema, ...errorResponses([...AUTH_ERRORS, 404, ...BODY_ERRORS]) },
      },
    },
    async (request) => channels.rotateFeedToken(request.auth.accountId, request.params.channelId),
  );

  app.delete(
    '/channels/:channelId',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'deleteChannel',
        summary: 'Delete a channel',
        description: 'Removes the channel and its feed; 409 while listings are live on it.',
        params: ChannelParamsSchema,
        response: { 204: Type.Null({ description: 'Removed.' }), ...errorResponses([...AUTH_ERRORS, 404, 409]) },
      },
    },
    async (request, reply) => {
      await channels.delete(request.auth.accountId, request.params.channelId);
      return reply.status(204).send(null);
    },
  );
};
