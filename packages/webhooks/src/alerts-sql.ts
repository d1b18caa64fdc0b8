import { sql, type PrismaClient, type Service } from '@platform/db';
import { applicationIdsOfAccount, applicationsByIds } from '@platform/auth';

/** An endpoint whose owner is due an alert, claimed (its `alerted_at` set) by this call. */
export interface DueAlert {
  id: string;
  account_id: string;
  service: Service;
  url: string;
  application_id: string | null;
  kind: 'failing' | 'paused';
  failing_since: Date;
  paused_at: Date | null;
  previous_alerted_at: Date | null;
}

/**
 * Claims the endpoints whose owner is due an alert, at most `limit`: active ones failing for
 * `failingAfterMs` (no successful delivery since `failing_since`) and ones paused by the delivery
 * worker (24 h without success; a pause by hand is the owner's own doing), each not yet alerted for
 * this failure or pause, and none alerted within the last `intervalMs`. The claim is the write of
 * `alerted_at` (`FOR UPDATE SKIP LOCKED`), so two workers never alert for the same endpoint twice.
 */
export function claimDueAlerts(
  db: PrismaClient,
  at: Date,
  {
    failingAfterMs,
    pauseAfterMs,
    intervalMs,
    limit = 50,
  }: {
    failingAfterMs: number;
    pauseAfterMs: number;
    intervalMs: number;
    limit?: number;
  },
): Promise<DueAlert[]> {
  return db.$queryRaw<DueAlert[]>`
    WITH due AS (
      SELECT id, alerted_at, CASE WHEN status = 'paused' THEN 'paused' ELSE 'failing' END AS kind
      FROM webhook_endpoints
      WHERE deleted_at IS NULL AND failing_since IS NOT NULL
        AND (alerted_at IS NULL OR alerted_at <= ${at}::timestamptz - make_interval(secs => ${intervalMs / 1000}::double precision))
        AND ((status = 'active' AND failing_since <= ${at}::timestamptz - make_interval(secs => ${failingAfterMs / 1000}::double precision)
              AND (alerted_at IS NULL OR alerted_at < failing_since))
          OR (status = 'paused' AND paused_at >= failing_since + make_interval(secs => ${pauseAfterMs / 1000}::double precision)
              AND (alerted_at IS NULL OR alerted_at < paused_at)))
      ORDER BY id LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE webhook_endpoints ep SET alerted_at = ${at}::timestamptz FROM due WHERE ep.id = due.id
    RETURNING ep.id, ep.account_id, ep.service::text AS service, ep.url, ep.application_id, due.kind,
      ep.failing_since, ep.paused_at, due.alerted_at AS previous_alerted_at`;
}

/** Gives the claim back after the e-mail could not be sent: a later sweep tries again. */
export async function releaseAlert(db: PrismaClient, alert: DueAlert, claimedAt: Date): Promise<void> {
  await db.webhookEndpoint.updateMany({
    where: { id: alert.id, alerted_at: claimedAt },
    data: { alerted_at: alert.previous_alerted_at },
  });
}

/** The endpoint's last failed attempt (among its 50 newest deliveries) and how many deliveries it holds. */
export async function failureSummary(
  db: PrismaClient,
  endpointId: string,
): Promise<{ lastFailure: { at: Date; statusCode: number | null; errorClass: string } | null; held: number }> {
  const [last] = await db.$queryRaw<{ attempted_at: Date; status_code: number | null; error_class: string }[]>`
    SELECT a.attempted_at, a.status_code, a.error_class
    FROM (SELECT id FROM webhook_deliveries WHERE endpoint_id = ${endpointId} ORDER BY created_at DESC, id DESC LIMIT 50) d
    JOIN delivery_attempts a ON a.delivery_id = d.id
    WHERE a.error_class IS NOT NULL
    ORDER BY a.attempted_at DESC LIMIT 1`;
  const held = await db.webhookDelivery.count({ where: { endpoint_id: endpointId, status: 'held' } });
  return {
    lastFailure: last ? { at: last.attempted_at, statusCode: last.status_code, errorClass: last.error_class } : null,
    held,
  };
}

/** Who hears of the endpoint: the owner of the application that registered it, where there is one. */
export interface AlertRecipient {
  email: string;
  applications: { id: string; name: string }[];
}

/**
 * The owner of the registering application; for an endpoint registered before that was recorded
 * (or whose application is gone), the owners of the account's applications in the service. Empty
 * when nobody is named (`pnpm cli app set-owner`).
 */
export async function alertRecipients(
  db: PrismaClient,
  endpoint: Pick<DueAlert, 'account_id' | 'service' | 'application_id'>,
): Promise<AlertRecipient[]> {
  let apps = endpoint.application_id ? await applicationsByIds(db, [endpoint.application_id]) : [];
  if (apps.length === 0) {
    const ids = await db.$queryRaw<{ id: string }[]>(sql`${applicationIdsOfAccount(endpoint.account_id)}`);
    apps = (
      await applicationsByIds(
        db,
        ids.map((row) => row.id),
      )
    ).filter((app) => app.service === endpoint.service);
  }
  const byOwner = new Map<string, AlertRecipient>();
  for (const app of apps.sort((a, b) => a.id.localeCompare(b.id))) {
    if (!app.owner_email) continue;
    const key = app.owner_email.toLowerCase();
    const recipient = byOwner.get(key) ?? { email: app.owner_email, applications: [] };
    recipient.applications.push({ id: app.id, name: app.name });
    byOwner.set(key, recipient);
  }
  return [...byOwner.values()];
}
