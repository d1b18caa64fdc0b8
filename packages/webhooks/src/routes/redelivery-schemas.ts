import { Type } from '@sinclair/typebox';
import { Named, Nullable, StringEnum } from '@platform/http';

const DateTime = Type.String({ format: 'date-time' });
const Selection = StringEnum(['failed', 'all'], {
  description: '`failed` (default): the failed deliveries; `all`: the failed and the succeeded ones.',
});

export const RedeliveryInputSchema = Named(
  'WebhookRedeliveryInput',
  Type.Object(
    {
      since: Type.String({
        format: 'date-time',
        description: 'Deliveries created from this time up to the request are sent again; not in the future.',
      }),
      status: Type.Optional(Selection),
    },
    { additionalProperties: false },
  ),
);

export const RedeliverySchema = Named(
  'WebhookRedelivery',
  Type.Object({
    id: Type.String(),
    webhook_id: Type.String(),
    selection: Type.Object({ since: DateTime, status: Selection }),
    status: StringEnum(['running', 'completed'], {
      description:
        '`running` while deliveries are still being queued (it waits while the endpoint is paused); `completed` once all are queued: their attempts may still run (see `counts`).',
    }),
    counts: Type.Object({
      total: Type.Integer({
        description:
          'Deliveries selected when the redelivery was created; once `completed`, the number queued (deliveries retried or sent meanwhile are left out).',
      }),
      queued: Type.Integer({ description: 'Deliveries queued again so far.' }),
      pending: Type.Integer({
        description: 'Queued deliveries whose new attempts are not finished (or held while paused).',
      }),
      succeeded: Type.Integer(),
      failed: Type.Integer(),
    }),
    created_at: DateTime,
    completed_at: Nullable(DateTime),
  }),
);

export const RedeliveryParamsSchema = Type.Object({ webhookId: Type.String(), redeliveryId: Type.String() });
