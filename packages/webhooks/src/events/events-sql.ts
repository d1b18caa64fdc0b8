import { readRows, type Db, type Service } from '@platform/db';
import type { CursorPosition } from '@platform/http';

export interface StoredEvent {
  id: string;
  type: string;
  created_at: Date;
  /** The delivery body, byte for byte as webhooks send it. */
  payload: string;
}

export interface EventFilter {
  accountId: string;
  service: Service;
  /** Only these types (never empty: the caller answers an empty page itself). */
  types: readonly string[];
  /** At or after (the retention cutoff, or a later `created_after`). */
  from: Date;
  /** Strictly before. */
  before?: Date;
  /** The rows after this position in `(created_at DESC, id DESC)` order. */
  after?: CursorPosition;
  take: number;
}

/**
 * One page of an account's events, newest first. The index
 * `(account_id, service, created_at, id)` serves the order, the time range and the cursor as one
 * range scan; the type filter is applied on the rows it reads.
 */
export function findEvents(db: Db, filter: EventFilter): Promise<StoredEvent[]> {
  const { text, values } = eventsQuery(filter);
  return readRows<StoredEvent>(db, text, values);
}

/** The statement of `findEvents` (its plan is tested). */
export function eventsQuery(filter: EventFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [filter.accountId, filter.service, filter.types, filter.from];
  const conditions = [
    'account_id = $1',
    'service = $2::"Service"',
    'type = ANY($3::text[])',
    'created_at >= $4::timestamptz',
  ];
  if (filter.before) {
    values.push(filter.before);
    conditions.push(`created_at < $${values.length}::timestamptz`);
  }
  if (filter.after) {
    values.push(filter.after.createdAt, filter.after.id);
    conditions.push(`(created_at, id) < ($${values.length - 1}::timestamptz, $${values.length})`);
  }
  values.push(filter.take);
  const text = `SELECT id, type, created_at, payload FROM outbox_events WHERE ${conditions.join(' AND ')}
     ORDER BY created_at DESC, id DESC LIMIT $${values.length}`;
  return { text, values };
}

/** One event of the account, if it was created at or after `from`. */
export async function findEvent(
  db: Db,
  where: { id: string; accountId: string; service: Service; from: Date },
): Promise<StoredEvent | undefined> {
  const rows = await readRows<StoredEvent>(
    db,
    `SELECT id, type, created_at, payload FROM outbox_events
     WHERE id = $1 AND account_id = $2 AND service = $3::"Service" AND created_at >= $4::timestamptz`,
    [where.id, where.accountId, where.service, where.from],
  );
  return rows[0];
}
