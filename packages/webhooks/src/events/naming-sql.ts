import { readRows, type Db, type Service } from '@platform/db';

/** An event whose data names one of the given ids, with how its deliveries stand. */
export interface EventNaming {
  id: string;
  type: string;
  created_at: Date;
  /** Deliveries to the account's endpoints, by state (`pending` includes `held`). */
  succeeded: number;
  failed: number;
  pending: number;
}

/**
 * The account's events (still in the history) whose `data.<field>` is one of `ids`, for any of
 * `fields`, oldest first: what was sent about a record and the records that hang off it (an access
 * request lists what was sent about a person). The scan is bounded by the history's retention; a
 * text search for the quoted ids comes first, so only the few payloads that contain one are parsed
 * (4x faster over 200,000 events of one account: ~0.8 s against ~3.3 s). No index: it would cost
 * every event written, for a read as rare as an access request.
 */
export function eventsNaming(
  db: Db,
  where: { accountId: string; service: Service; fields: readonly string[]; ids: readonly string[] },
): Promise<EventNaming[]> {
  if (where.ids.length === 0 || where.fields.length === 0) return Promise.resolve([]);
  return readRows<EventNaming>(
    db,
    `SELECT e.id, e.type, e.created_at,
            count(d.id) FILTER (WHERE d.status = 'succeeded')::int AS succeeded,
            count(d.id) FILTER (WHERE d.status = 'failed')::int AS failed,
            count(d.id) FILTER (WHERE d.status IN ('pending', 'held'))::int AS pending
       FROM outbox_events e
       LEFT JOIN webhook_deliveries d ON d.event_id = e.id
      WHERE e.account_id = $1 AND e.service = $2::"Service"
        AND EXISTS (SELECT 1 FROM unnest($4::text[]) AS n(id) WHERE strpos(e.payload, '"' || n.id || '"') > 0)
        AND EXISTS (SELECT 1 FROM unnest($3::text[]) AS f(name) WHERE (e.payload::jsonb -> 'data') ->> f.name = ANY($4::text[]))
      GROUP BY e.id
      ORDER BY e.created_at, e.id`,
    [where.accountId, where.service, [...where.fields], [...where.ids]],
  );
}
