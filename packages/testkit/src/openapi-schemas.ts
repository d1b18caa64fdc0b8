// Reading an OpenAPI document's schemas in tests: where a schema sits, and the components the
// service shell (api-keys, webhooks, event types) names in every service's document.

export type Schema = { $ref?: string; title?: string; properties?: Record<string, Schema>; items?: Schema };
type Content = { content?: Record<string, { schema: Schema }> };
export type OpenApiDocument = {
  paths: Record<string, Record<string, { requestBody?: Content; responses: Record<string, Content> }>>;
  components: { schemas: Record<string, Schema> };
};

/**
 * The JSON schema at `place` of `operation` ("GET /v1/properties"): `body` or a response status,
 * then fields, `data[]` for the items of `data`; a `$ref` on the way is followed, the last one is not.
 */
export function schemaAt(doc: OpenApiDocument, operation: string, place: string): Schema | undefined {
  const [method, path] = operation.split(' ') as [string, string];
  const op = doc.paths[path]?.[method.toLowerCase()];
  const [first, ...fields] = place.split(' ') as [string, ...string[]];
  let schema = (first === 'body' ? op?.requestBody : op?.responses[first])?.content?.['application/json']?.schema;
  for (const field of fields) {
    const target = schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
    schema = field.endsWith('[]') ? target?.properties?.[field.slice(0, -2)]?.items : target?.properties?.[field];
  }
  return schema;
}

/** [operation, place, component] of what the service shell adds to every document. */
export const SHELL_COMPONENTS: readonly (readonly [string, string, string])[] = [
  ['GET /v1/api-keys', '200 data[]', 'ApiKey'],
  ['POST /v1/api-keys', 'body', 'ApiKeyInput'],
  ['POST /v1/api-keys', '201', 'ApiKeyCreated'],
  ['POST /v1/api-keys/{keyId}/roll', 'body', 'ApiKeyRollInput'],
  ['POST /v1/api-keys/{keyId}/roll', '201', 'ApiKeyRolled'],
  ['POST /v1/webhooks', 'body', 'WebhookInput'],
  ['POST /v1/webhooks', '201', 'WebhookCreated'],
  ['GET /v1/webhooks', '200 data[]', 'Webhook'],
  ['PATCH /v1/webhooks/{webhookId}', 'body', 'WebhookUpdate'],
  ['GET /v1/webhooks/{webhookId}/deliveries', '200 data[]', 'WebhookDelivery'],
  ['POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry', '202', 'WebhookDelivery'],
  ['POST /v1/webhooks/{webhookId}/test', '202', 'WebhookTestEvent'],
  ['POST /v1/webhooks/{webhookId}/rotate-secret', '200', 'WebhookSecretRotation'],
  ['POST /v1/webhooks/{webhookId}/redeliveries', 'body', 'WebhookRedeliveryInput'],
  ['POST /v1/webhooks/{webhookId}/redeliveries', '202', 'WebhookRedelivery'],
  ['GET /v1/webhooks/{webhookId}/redeliveries/{redeliveryId}', '200', 'WebhookRedelivery'],
  ['GET /v1/event-types', '200 data[]', 'EventType'],
  ['GET /v1/events', '200 data[]', 'Event'],
  ['GET /v1/events/{eventId}', '200', 'Event'],
];
