import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, errorResponses } from '@platform/http';
import { RedeliveryInputSchema, RedeliveryParamsSchema, RedeliverySchema } from './redelivery-schemas.js';
import { WebhookParamsSchema } from './schemas.js';
import type { createRedeliveryService } from './redelivery-service.js';

type Caller = { auth: { accountId: string; scopes: ReadonlySet<string> } };

/** `POST/GET /webhooks/{id}/redeliveries…`: the bulk redelivery of an endpoint's deliveries and its progress. */
export function registerRedeliveryRoutes(
  app: FastifyInstance,
  redeliveries: ReturnType<typeof createRedeliveryService>,
  findEndpoint: (request: Caller) => (id: string) => Promise<{ id: string; account_id: string; status: string }>,
  scopeRule: string,
): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Webhooks'];

  typed.post(
    '/webhooks/:webhookId/redeliveries',
    {
      schema: {
        tags,
        operationId: 'createWebhookRedelivery',
        summary: "Redeliver a webhook endpoint's deliveries since a time",
        description: `Sends again every failed delivery (\`status: failed\`, the default) or every finished one (\`all\`) of the endpoint created from \`since\` up to now, each with its event id and a fresh retry schedule. The worker queues them in batches of 500 after the previous batch got its jobs; follow the progress with \`GET …/redeliveries/{redeliveryId}\`. A delivery still pending is left alone (it is on its way; an event is never sent twice at once). One redelivery per endpoint at a time: 409 \`conflict\` while one is running, and while the endpoint is paused (resume it first: its held deliveries are sent then; a redelivery running when the endpoint is paused waits for its resumption). ${scopeRule}`,
        params: WebhookParamsSchema,
        body: RedeliveryInputSchema,
        response: { 202: RedeliverySchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await redeliveries.create(findEndpoint(request), request.params.webhookId, request.body)),
  );

  typed.get(
    '/webhooks/:webhookId/redeliveries/:redeliveryId',
    {
      schema: {
        tags,
        operationId: 'getWebhookRedelivery',
        summary: 'Get the progress of a webhook redelivery',
        description: `How many deliveries the redelivery selected, queued so far, and how their new attempts came out. ${scopeRule}`,
        params: RedeliveryParamsSchema,
        response: { 200: RedeliverySchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => redeliveries.get(findEndpoint(request), request.params.webhookId, request.params.redeliveryId),
  );
}
