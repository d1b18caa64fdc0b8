import type { PrismaClient } from '@platform/db';

/**
 * Resumes a paused endpoint: the 24 h window starts afresh and the deliveries held while it was
 * paused become pending, each marked for a new job with its own schedule. Two statements in one
 * transaction, whatever the number of held deliveries: the relay adds the jobs in batches
 * (`enqueueRequestedDeliveries`). Returns the number of deliveries resumed.
 */
export async function resumeEndpoint(db: PrismaClient, endpointId: string, now: Date): Promise<number> {
  const [, resumed] = await db.$transaction([
    db.webhookEndpoint.update({
      where: { id: endpointId },
      data: { status: 'active', paused_at: null, failing_since: null, updated_at: now },
    }),
    db.webhookDelivery.updateMany({
      where: { endpoint_id: endpointId, status: 'held' },
      data: { status: 'pending', next_attempt_at: now, requeue_at: now, updated_at: now },
    }),
  ]);
  return resumed.count;
}

/** Pauses an endpoint by hand: no attempts until it is resumed. */
export async function pauseEndpoint(db: PrismaClient, endpointId: string, now: Date): Promise<void> {
  await db.webhookEndpoint.update({
    where: { id: endpointId },
    data: { status: 'paused', paused_at: now, updated_at: now },
  });
}

/**
 * Deletes an endpoint for its tenant at once: hidden from every read, no new deliveries, no more
 * attempts. Its deliveries and attempt logs are removed by the relay's sweep in batches
 * (`purgeDeletedEndpoints`), then the row itself.
 */
export async function deleteEndpoint(db: PrismaClient, endpointId: string, now: Date): Promise<void> {
  await db.webhookEndpoint.update({ where: { id: endpointId }, data: { deleted_at: now, updated_at: now } });
}
