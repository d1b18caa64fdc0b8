import type { Db, Service } from '@platform/db';
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
export async function recordEvent(tx: Pick<Db, 'outboxEvent'>, input: EventInput): Promise<string> {
  const id = newId('evt', input.now.getTime());
  const payload = JSON.stringify({ id, type: input.type, created_at: input.now.toISOString(), data: input.data });
  await tx.outboxEvent.create({ data: { id, account_id: input.accountId, service: input.service, type: input.type, payload, created_at: input.now } });
  return id;
}
