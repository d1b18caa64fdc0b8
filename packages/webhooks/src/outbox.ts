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
