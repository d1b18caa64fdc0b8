import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { RETRY_DELAYS_MS } from './schedule.js';

export const DELIVERY_QUEUE = 'webhook-deliveries';

export interface DeliveryJob {
  deliveryId: string;
}

/** One job per delivery, job id = delivery id, so enqueueing twice is a no-op. */
export function deliveryJobOptions(deliveryId: string, delays: readonly number[] = RETRY_DELAYS_MS): JobsOptions {
  return {
    jobId: deliveryId,
    attempts: delays.length + 1,
    backoff: { type: 'custom' }, // the worker's backoffStrategy applies the schedule
    // Kept for a week, so a relay that re-enqueues after a crash finds the job and adds nothing.
    removeOnComplete: { age: 7 * 24 * 3600 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

export function createDeliveryQueue(connection: ConnectionOptions, prefix?: string): Queue<DeliveryJob> {
  return new Queue<DeliveryJob>(DELIVERY_QUEUE, { connection, prefix });
}

export async function enqueueDeliveries(
  queue: Queue<DeliveryJob>,
  deliveryIds: readonly string[],
  delays?: readonly number[],
): Promise<void> {
  if (deliveryIds.length === 0) return;
  await queue.addBulk(
    deliveryIds.map((deliveryId) => ({
      name: 'deliver',
      data: { deliveryId },
      opts: deliveryJobOptions(deliveryId, delays),
    })),
  );
}

/**
 * Removes the job of a delivery so that a new one can be added (adding with the same id would be
 * a no-op). A job that is running is waited for (an attempt lasts at most a few seconds); false if
 * it is still running after `waitMs`. True when no job of this id is left.
 */
export async function removeJob(queue: Queue<DeliveryJob>, deliveryId: string, waitMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const job = await queue.getJob(deliveryId);
    if (!job) return true;
    if (!(await job.isActive())) {
      const removed = await job.remove().then(
        () => true,
        () => false, // it became active in between: wait for it like any running job
      );
      if (removed) return true;
    }
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
