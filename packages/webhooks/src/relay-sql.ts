import type { Db, Service } from '@platform/db';

export interface PendingEvent {
  id: string;
  account_id: string;
  service: Service;
  type: string;
}

/**
 * Claims a batch of outbox events not yet relayed, oldest first, until the transaction ends.
 * `SKIP LOCKED` lets several relays run side by side (Prisma has no locking API, hence SQL).
 */
export function claimOutboxEvents(tx: Pick<Db, '$queryRaw'>, batchSize: number): Promise<PendingEvent[]> {
  return tx.$queryRaw<PendingEvent[]>`
    SELECT id, account_id, service::text AS service, type FROM outbox_events
    WHERE relayed_at IS NULL ORDER BY created_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;
}
