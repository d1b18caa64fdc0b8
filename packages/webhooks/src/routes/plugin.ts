import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, PageQuerySchema, PageSchema, errorResponses } from '@platform/http';
import {
  CreatedWebhookSchema,
  DeliveryListQuerySchema,
  DeliveryParamsSchema,
  DeliverySchema,
  EventTypeSchema,
  RotatedSecretSchema,
  TestEventSchema,
  WebhookParamsSchema,
  WebhookSchema,
  bodySchemas,
} from './schemas.js';
import {
  DEFAULT_MAX_ENDPOINTS_PER_ACCOUNT,
  DEFAULT_TEST_EVENTS_PER_MINUTE,
  createWebhookService,
  type WebhookServiceDeps,
} from './service.js';
import { registerRedeliveryRoutes } from './redelivery-routes.js';
import { createRedeliveryService } from './redelivery-service.js';

const SCOPE_RULE =
  'Required scope: the scope of each event type the endpoint receives (see `GET /v1/event-types`): a key may only subscribe to, and manage endpoints of, events whose data it may read; otherwise 403 `scope_missing`.';
const tags = ['Webhooks'];

/** Registration and operations of webhook endpoints; mounted by each service with its catalogue. */
export const webhookRoutes: FastifyPluginAsync<WebhookServiceDeps> = async (plugin, deps) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const webhooks = createWebhookService(deps);
  const { CreateWebhookSchema, UpdateWebhookSchema } = bodySchemas(deps.catalogue);
  const caller = (request: { auth: { accountId: string; applicationId?: string; scopes: ReadonlySet<string> } }) =>
    request.auth;
  const maxEndpoints = deps.maxEndpointsPerAccount ?? DEFAULT_MAX_ENDPOINTS_PER_ACCOUNT;
  const testEventsPerMinute = deps.testEventsPerMinute ?? DEFAULT_TEST_EVENTS_PER_MINUTE;

  app.post(
    '/webhooks',
    {
      config: { showsSecretOnce: true },
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Create a webhook endpoint',
        description: `Registers an endpoint; the response carries \`signing_secret\` once. In production the url must be https and must not resolve to a private, loopback or link-local address. An account has at most ${maxEndpoints} endpoints in this API; beyond, 422 \`validation_failed\`. ${SCOPE_RULE}`,
        body: CreateWebhookSchema,
        response: { 201: CreatedWebhookSchema, ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => reply.status(201).send(await webhooks.create(caller(request), request.body)),
  );

  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'List webhook endpoints',
        description:
          'Endpoints of the account that the key may manage (those whose every event type it may read, as for the other webhook operations), newest first (never with secrets).',
        querystring: PageQuerySchema,
        response: { 200: PageSchema(WebhookSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => webhooks.list(caller(request), request.query),
  );

  app.get(
    '/webhooks/:webhookId',
    {
      schema: {
        tags,
        operationId: 'getWebhook',
        summary: 'Get a webhook endpoint',
        description: SCOPE_RULE,
        params: WebhookParamsSchema,
        response: { 200: WebhookSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => webhooks.get(caller(request), request.params.webhookId),
  );

  app.patch(
    '/webhooks/:webhookId',
    {
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Update a webhook endpoint',
        description: `Changes url, events or description; \`status: active\` resumes a paused endpoint (held deliveries are sent), \`status: paused\` pauses it. ${SCOPE_RULE}`,
        params: WebhookParamsSchema,
        body: UpdateWebhookSchema,
        response: { 200: WebhookSchema, ...errorResponses([...AUTH_ERRORS, 404, ...BODY_ERRORS]) },
      },
    },
    async (request) => webhooks.update(caller(request), request.params.webhookId, request.body),
  );

  app.delete(
    '/webhooks/:webhookId',
    {
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description: `Deletes the endpoint and its delivery log: the endpoint is gone at once (every read answers 404, nothing more is sent); the log is removed in the background. ${SCOPE_RULE}`,
        params: WebhookParamsSchema,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(caller(request), request.params.webhookId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/webhooks/:webhookId/deliveries',
    {
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: "List a webhook endpoint's deliveries",
        description:
          'Deliveries of the endpoint, newest first, each with its attempts (time, status code, duration, error class, response excerpt).',
        params: WebhookParamsSchema,
        querystring: DeliveryListQuerySchema,
        response: { 200: PageSchema(DeliverySchema), ...errorResponses([...AUTH_ERRORS, 404, 422]) },
      },
    },
    async (request) => webhooks.deliveries(caller(request), request.params.webhookId, request.query),
  );

  app.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/retry',
    {
      schema: {
        tags,
        operationId: 'retryWebhookDelivery',
        summary: 'Retry a webhook delivery',
        description:
          'Sends the delivery again now, with the same event id and a fresh retry schedule (an attempt running at that moment finishes first). 409 while the endpoint is paused.',
        params: DeliveryParamsSchema,
        body: EmptyBodySchema,
        response: { 202: DeliverySchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(await webhooks.retry(caller(request), request.params.webhookId, request.params.deliveryId)),
  );

  app.post(
    '/webhooks/:webhookId/test',
    {
      schema: {
        tags,
        operationId: 'testWebhook',
        summary: 'Send a test event to a webhook endpoint',
        description: `Sends a signed \`webhook.test\` event to this endpoint only; at most ${testEventsPerMinute} per endpoint and minute, beyond that 429 \`rate_limited\` with \`Retry-After\` (seconds).`,
        params: WebhookParamsSchema,
        body: EmptyBodySchema,
        response: { 202: TestEventSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS, 429]) },
      },
    },
    async (request, reply) => reply.status(202).send(await webhooks.test(caller(request), request.params.webhookId)),
  );

  app.post(
    '/webhooks/:webhookId/rotate-secret',
    {
      config: { showsSecretOnce: true },
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: "Rotate a webhook endpoint's signing secret",
        description:
          'Issues a new signing secret (shown once). For 24 h both secrets sign: the signature header carries two `v1=` values.',
        params: WebhookParamsSchema,
        body: EmptyBodySchema,
        response: { 200: RotatedSecretSchema, ...errorResponses([...AUTH_ERRORS, 404, ...BODY_ERRORS]) },
      },
    },
    async (request) => webhooks.rotateSecret(caller(request), request.params.webhookId),
  );

  registerRedeliveryRoutes(
    plugin,
    createRedeliveryService(deps),
    (request) => (id) => webhooks.endpoint(caller(request), id),
    SCOPE_RULE,
  );

  app.get(
    '/event-types',
    {
      schema: {
        tags,
        operationId: 'listEventTypes',
        summary: 'List event types',
        description:
          'The event catalogue: each type with the scope needed to subscribe and the JSON Schema of its `data`.',
        response: { 200: Type.Object({ data: Type.Array(EventTypeSchema) }), ...errorResponses([...AUTH_ERRORS]) },
      },
    },
    async () => webhooks.eventTypes(),
  );
};
