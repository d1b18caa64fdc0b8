import { readRows, type SqlRunner } from '@platform/db';

/** A relayed event with one endpoint subscribed to it (`endpoint_id` null: none is). */
export interface ClaimedEvent {
  event_id: string;
  account_id: string;
  endpoint_id: string | null;
  endpoint_status: 'active' | 'paused' | null;
}

/**
 * Marks a batch of outbox events relayed, oldest first, and returns each with the endpoints of its
 * tenant subscribed to its type, in one statement. `FOR UPDATE SKIP LOCKED` lets several relays
 * run side by side; the marks count only if the caller's transaction commits.
 */
export function claimOutboxEvents(tx: SqlRunner, batchSize: number, at: Date): PromiseLike<ClaimedEvent[]> {
  return tx.$queryRawUnsafe<ClaimedEvent[]>(
    `WITH claimed AS (
       UPDATE outbox_events SET relayed_at = $1::timestamptz
       WHERE id IN (SELECT id FROM outbox_events WHERE relayed_at IS NULL ORDER BY created_at LIMIT $2::int FOR UPDATE SKIP LOCKED)
       RETURNING id, account_id, service, type, created_at
     )
     SELECT c.id AS event_id, c.account_id, ep.id AS endpoint_id, ep.status::text AS endpoint_status
     FROM claimed c
     LEFT JOIN webhook_endpoints ep
       ON ep.account_id = c.account_id AND ep.service = c.service AND ep.deleted_at IS NULL AND c.type = ANY (ep.events)
     ORDER BY c.created_at, c.id, ep.id`,
    at,
    batchSize,
  );
}

export interface NewDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  account_id: string;
  status: 'pending' | 'held';
}

/** Inserts deliveries (one per event and endpoint: an existing pair is skipped); returns the ids of those inserted. */
export async function insertDeliveries(tx: SqlRunner, deliveries: NewDelivery[], at: Date): Promise<string[]> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status, next_attempt_at, created_at, updated_at)
     SELECT d.id, d.event_id, d.endpoint_id, d.account_id, d.status::"DeliveryStatus", $6::timestamptz, $6::timestamptz, $6::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS d (id, event_id, endpoint_id, account_id, status)
     ON CONFLICT (event_id, endpoint_id) DO NOTHING
     RETURNING id`,
    deliveries.map((d) => d.id),
    deliveries.map((d) => d.event_id),
    deliveries.map((d) => d.endpoint_id),
    deliveries.map((d) => d.account_id),
    deliveries.map((d) => d.status),
    at,
  );
  return rows.map((row) => row.id);
}

/** Whether any delivery waits for a job by hand (`requeue_at`): the relay's cheap check on every pass. */
export async function anyRequeueRequested(db: Parameters<typeof readRows>[0]): Promise<boolean> {
  const rows = await readRows<{ one: number }>(
    db,
    'SELECT 1 AS one FROM webhook_deliveries WHERE requeue_at IS NOT NULL LIMIT 1',
    [],
  );
  return rows.length > 0;
}
