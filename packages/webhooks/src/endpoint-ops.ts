import type { PrismaClient } from '@platform/db';
import type { Queue } from 'bullmq';
import { requeueDelivery, type DeliveryJob } from './queue.js';

/**
 * Resumes a paused endpoint: the 24 h window starts afresh and the deliveries held while it was
 * paused are sent again, each with its own schedule.
 */
export async function resumeEndpoint(db: PrismaClient, queue: Queue<DeliveryJob>, endpointId: string, now: Date): Promise<number> {
  const held = await db.$transaction(async (tx) => {
    await tx.webhookEndpoint.update({ where: { id: endpointId }, data: { status: 'active', paused_at: null, failing_since: null, updated_at: now } });
    const rows = await tx.webhookDelivery.findMany({ where: { endpoint_id: endpointId, status: 'held' }, select: { id: true } });
    await tx.webhookDelivery.updateMany({ where: { endpoint_id: endpointId, status: 'held' }, data: { status: 'pending', next_attempt_at: now, updated_at: now } });
    return rows.map((r) => r.id);
  });
  for (const id of held) await requeueDelivery(queue, id);
  return held.length;
}

/** Pauses an endpoint by hand: no attempts until it is resumed. */
export async function pauseEndpoint(db: PrismaClient, endpointId: string, now: Date): Promise<void> {
  await db.webhookEndpoint.update({ where: { id: endpointId }, data: { status: 'paused', paused_at: now, updated_at: now } });
}

