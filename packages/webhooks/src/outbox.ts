import type { Service, SqlRunner } from '@platform/db';
import { newId } from '@platform/db';

export interface EventInput {
  accountId: string;
  service: Service;
  type: string;
  /** Ids and non-personal fields only (DESIGN §7): deliveries and logs never hold personal data. */
  data: Record<string, unknown>;
  now: Date;
}

/**
 * Writes an event into the outbox. Call it with the transaction that makes the change, so the
 * event exists exactly when the change does. The stored payload is the delivery body, byte for
 * byte, for every endpoint and every retry.
 */
export async function recordEvent(tx: SqlRunner, input: EventInput): Promise<string> {
  const id = newId('evt', input.now.getTime());
  const payload = JSON.stringify({ id, type: input.type, created_at: input.now.toISOString(), data: input.data });
  await tx.$executeRawUnsafe(
    'INSERT INTO outbox_events (id, account_id, service, type, payload, created_at) VALUES ($1, $2, $3::"Service", $4, $5, $6::timestamptz)',
    id,
    input.accountId,
    input.service,
    input.type,
    payload,
    input.now,
  );
  return id;
}

/**
 * Writes many events into the outbox in one statement (a batch announcing thousands of events would
 * otherwise be thousands of round trips). Each row is exactly the row `recordEvent` writes for the
 * same input: same id scheme, same payload bytes, same columns. Returns the ids in input order.
 */
export async function recordEvents(tx: SqlRunner, events: readonly EventInput[]): Promise<string[]> {
  if (events.length === 0) return [];
  const ids = events.map((event) => newId('evt', event.now.getTime()));
  const payloads = events.map((event, index) =>
    JSON.stringify({ id: ids[index], type: event.type, created_at: event.now.toISOString(), data: event.data }),
  );
  await tx.$executeRawUnsafe(
    `INSERT INTO outbox_events (id, account_id, service, type, payload, created_at)
     SELECT id, account_id, service::"Service", type, payload, created_at::timestamptz
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
         AS e(id, account_id, service, type, payload, created_at)`,
    ids,
    events.map((event) => event.accountId),
    events.map((event) => event.service),
    events.map((event) => event.type),
    payloads,
    events.map((event) => event.now.toISOString()),
  );
  return ids;
}
