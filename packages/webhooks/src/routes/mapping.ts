import type { Prisma } from '@platform/db';

type EndpointRow = Prisma.WebhookEndpointGetPayload<object>;
type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ include: { event: { select: { type: true } }; attempts: true } }>;

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** The API view of an endpoint: never a secret. */
export function toWebhook(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    paused_at: iso(row.paused_at),
    last_success_at: iso(row.last_success_at),
  };
}

export function toDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event.type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: iso(row.next_attempt_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    attempts: row.attempts.map((a) => ({
      attempted_at: a.attempted_at.toISOString(),
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error_class: a.error_class as
        'timeout' | 'connection_error' | 'blocked_address' | 'redirect' | 'http_status' | null,
      response_excerpt: a.response_excerpt,
    })),
  };
}
