import { Type } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';
import type { EventCatalogue } from '../catalogue.js';

const DateTime = Type.String({ format: 'date-time' });

export const WebhookSchema = Named(
  'Webhook',
  Type.Object({
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Nullable(Type.String()),
    status: StringEnum(['active', 'paused'], {
      description: '`paused` after 24 h without a successful delivery, or by hand; resume with PATCH `status: active`.',
    }),
    created_at: DateTime,
    updated_at: DateTime,
    paused_at: Nullable(DateTime),
    last_success_at: Nullable(DateTime),
  }),
);

export const CreatedWebhookSchema = Named(
  'WebhookCreated',
  Type.Composite([
    WebhookSchema,
    Type.Object({ signing_secret: Type.String({ description: 'Verifies deliveries. Shown only in this response.' }) }),
  ]),
);

export const RotatedSecretSchema = Named(
  'WebhookSecretRotation',
  Type.Object({
    id: Type.String(),
    signing_secret: Type.String({ description: 'The new secret, shown only here.' }),
    previous_secret_expires_at: DateTime,
  }),
);

export function bodySchemas(catalogue: EventCatalogue) {
  const Events = Type.Array(StringEnum(catalogue.map((e) => e.type)), {
    minItems: 1,
    maxItems: catalogue.length,
    uniqueItems: true,
  });
  const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'https URL that receives deliveries.' });
  return {
    CreateWebhookSchema: Named(
      'WebhookInput',
      Type.Object(
        { url: Url, events: Events, description: Type.Optional(Type.String({ maxLength: 500 })) },
        { additionalProperties: false },
      ),
    ),
    UpdateWebhookSchema: Named(
      'WebhookUpdate',
      Type.Object(
        {
          url: Type.Optional(Url),
          events: Type.Optional(Events),
          description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
          status: Type.Optional(StringEnum(['active', 'paused'])),
        },
        { additionalProperties: false },
      ),
    ),
  };
}

export const AttemptSchema = Type.Object({
  attempted_at: DateTime,
  status_code: Nullable(Type.Integer()),
  duration_ms: Type.Integer(),
  error_class: Nullable(StringEnum(['timeout', 'connection_error', 'blocked_address', 'redirect', 'http_status'])),
  response_excerpt: Nullable(Type.String()),
});

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'held'] as const;

export const DeliverySchema = Named(
  'WebhookDelivery',
  Type.Object({
    id: Type.String({ description: 'Sent as the delivery header; the same on every retry.' }),
    event_id: Type.String({ description: 'The body `id`; the same for every endpoint and retry.' }),
    event_type: Type.String(),
    status: StringEnum(DELIVERY_STATUSES, { description: '`held` while the endpoint is paused.' }),
    attempt_count: Type.Integer(),
    next_attempt_at: Nullable(DateTime),
    created_at: DateTime,
    updated_at: DateTime,
    attempts: Type.Array(AttemptSchema),
  }),
);

export const DeliveryListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({ status: Type.Optional(StringEnum(DELIVERY_STATUSES)) }),
]);

export const WebhookParamsSchema = Type.Object({ webhookId: Type.String() });
export const DeliveryParamsSchema = Type.Object({ webhookId: Type.String(), deliveryId: Type.String() });

export const TestEventSchema = Named(
  'WebhookTestEvent',
  Type.Object({ event_id: Type.String(), delivery_id: Type.String() }),
);

export const EventTypeSchema = Named(
  'EventType',
  Type.Object({
    type: Type.String(),
    description: Type.String(),
    scope: Type.String({ description: 'A key needs this scope to subscribe.' }),
    data_schema: Type.Unknown({ description: 'JSON Schema of the event `data`.' }),
  }),
);
