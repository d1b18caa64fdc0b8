import type { PrismaClient, Service } from '@platform/db';
import { BatchItemError, Batcher } from './batcher.js';

export interface DeliveryRow {
  id: string;
  status: string;
  type: string;
  payload: string;
  endpoint_id: string;
  url: string;
  service: Service;
  endpoint_status: string;
  endpoint_deleted: boolean;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  event_created_at: Date;
}

export interface AttemptRecord {
  attemptId: string;
  deliveryId: string;
  endpointId: string;
  startedAt: Date;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  errorClass: string | null;
  excerpt: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'held';
  nextAttemptAt: Date | null;
  ok: boolean;
}

async function loadMany(db: PrismaClient, ids: string[]): Promise<(DeliveryRow | undefined)[]> {
  const rows = await db.$queryRaw<DeliveryRow[]>`
    SELECT d.id, d.status::text AS status, e.type, e.payload, ep.id AS endpoint_id, ep.url, ep.service::text AS service,
           ep.status::text AS endpoint_status, ep.deleted_at IS NOT NULL AS endpoint_deleted, ep.secret_encrypted, ep.previous_secret_encrypted, ep.previous_secret_expires_at, ep.failing_since,
           e.created_at AS event_created_at
    FROM webhook_deliveries d
    JOIN outbox_events e ON e.id = d.event_id
    JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
    WHERE d.id = ANY(${ids}::text[])`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id));
}

/**
 * The attempts of a batch in one statement. Should it fail, the records are stored one by one,
 * so that a record the database refuses fails its own delivery only, never the deliveries of
 * other endpoints and accounts that happened to share its batch (they would be sent again).
 */
async function recordMany(db: PrismaClient, records: AttemptRecord[]): Promise<(void | BatchItemError)[]> {
  try {
    await recordStatement(db, records);
    return records.map(() => undefined);
  } catch (error) {
    if (records.length === 1) throw error;
    return Promise.all(
      records.map((record) =>
        recordStatement(db, [record]).then(
          () => undefined,
          (failure: unknown) => new BatchItemError(failure),
        ),
      ),
    );
  }
}

/**
 * The attempts, delivery updates and endpoint updates of records in one statement. Per endpoint:
 * a success clears the failure window (and touches `last_success_at` at most once a second);
 * otherwise the window starts at the first failure.
 */
async function recordStatement(db: PrismaClient, records: AttemptRecord[]): Promise<void> {
  const col = <T>(pick: (r: AttemptRecord) => T) => records.map(pick);
  await db.$executeRaw`
    WITH input AS (
      SELECT * FROM unnest(
        ${col((r) => r.attemptId)}::text[], ${col((r) => r.deliveryId)}::text[], ${col((r) => r.endpointId)}::text[],
        ${col((r) => r.startedAt.toISOString())}::timestamptz[], ${col((r) => r.at.toISOString())}::timestamptz[],
        ${col((r) => r.statusCode)}::int[], ${col((r) => r.durationMs)}::int[], ${col((r) => r.errorClass)}::text[],
        ${col((r) => r.excerpt)}::text[], ${col((r) => r.status)}::text[], ${col((r) => r.nextAttemptAt?.toISOString() ?? null)}::timestamptz[],
        ${col((r) => r.ok)}::boolean[]
      ) AS t(attempt_id, delivery_id, endpoint_id, started_at, at, status_code, duration_ms, error_class, excerpt, status, next_attempt_at, ok)
    ), attempts AS (
      INSERT INTO delivery_attempts (id, delivery_id, attempted_at, status_code, duration_ms, error_class, response_excerpt)
      SELECT attempt_id, delivery_id, started_at, status_code, duration_ms, error_class, excerpt FROM input
    ), deliveries AS (
      UPDATE webhook_deliveries d
      SET status = i.status::"DeliveryStatus", attempt_count = d.attempt_count + 1, next_attempt_at = i.next_attempt_at, updated_at = i.at
      FROM input i WHERE d.id = i.delivery_id
    ), per_endpoint AS (
      SELECT endpoint_id, bool_or(ok) AS ok, max(at) AS at FROM input GROUP BY endpoint_id
    )
    UPDATE webhook_endpoints ep SET
      last_success_at = CASE WHEN x.ok THEN x.at ELSE ep.last_success_at END,
      failing_since = CASE WHEN x.ok THEN NULL ELSE COALESCE(ep.failing_since, x.at) END
    FROM per_endpoint x
    WHERE ep.id = x.endpoint_id
      AND ((x.ok AND (ep.failing_since IS NOT NULL OR ep.last_success_at IS NULL OR ep.last_success_at < x.at - interval '1 second'))
        OR (NOT x.ok AND ep.failing_since IS NULL))`;
}

/** The rare pause: its own statement, so a batch never mixes a pause with other outcomes. */
export async function recordPause(db: PrismaClient, r: AttemptRecord): Promise<void> {
  await db.$transaction([
    db.deliveryAttempt.create({
      data: {
        id: r.attemptId,
        delivery_id: r.deliveryId,
        attempted_at: r.startedAt,
        status_code: r.statusCode,
        duration_ms: r.durationMs,
        error_class: r.errorClass,
        response_excerpt: r.excerpt,
      },
    }),
    db.webhookDelivery.update({
      where: { id: r.deliveryId },
      data: { status: 'held', attempt_count: { increment: 1 }, next_attempt_at: null, updated_at: r.at },
    }),
    db.webhookEndpoint.update({
      where: { id: r.endpointId },
      data: { status: 'paused', paused_at: r.at, updated_at: r.at },
    }),
  ]);
}

const stores = new WeakMap<
  PrismaClient,
  { load: Batcher<string, DeliveryRow | undefined>; record: Batcher<AttemptRecord, void> }
>();

/** One read and one write round trip serve all deliveries attempted within a couple of milliseconds. */
export function storeFor(db: PrismaClient) {
  let store = stores.get(db);
  if (!store) {
    store = {
      load: new Batcher((ids) => loadMany(db, ids)),
      record: new Batcher((records) => recordMany(db, records)),
    };
    stores.set(db, store);
  }
  return store;
}
