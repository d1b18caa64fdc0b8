import { Worker, type ConnectionOptions } from 'bullmq';
import { attemptDelivery, type DeliveryDeps } from './delivery.js';
import { DELIVERY_QUEUE, type DeliveryJob } from './queue.js';
import { relayOnce, requeueStaleDeliveries, type RelayDeps } from './relay.js';
import { RETRY_DELAYS_MS } from './schedule.js';

export interface WorkerOptions {
  connection: ConnectionOptions;
  prefix?: string;
  concurrency?: number;
  /** How long a running job is owned before another worker takes it over (BullMQ stalled-job check). */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

/**
 * The delivery worker: one attempt per job run; a failed attempt throws, and BullMQ runs the
 * job again after the schedule's delay (job id = delivery id, same event id every time).
 */
export function startDeliveryWorker(deps: DeliveryDeps, options: WorkerOptions): Worker<DeliveryJob> {
  const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
  return new Worker<DeliveryJob>(
    DELIVERY_QUEUE,
    async (job) => {
      const outcome = await attemptDelivery(deps, job.data.deliveryId, job.attemptsMade + 1);
      if (outcome === 'retry') throw new Error('delivery attempt failed; the next follows the retry schedule');
      return outcome;
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency ?? 50,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      settings: { backoffStrategy: (attemptsMade: number) => delays[attemptsMade - 1] ?? delays[delays.length - 1] },
    },
  );
}

/** Runs the relay until stopped: drains the outbox, then polls; repairs lost enqueues now and then. */
export function startRelay(deps: RelayDeps, options: { intervalMs?: number; sweepEveryMs?: number; onError?: (error: unknown) => void } = {}) {
  let running = true;
  let lastSweep = 0;
  const done = (async () => {
    while (running) {
      try {
        const moved = await relayOnce(deps);
        if (Date.now() - lastSweep > (options.sweepEveryMs ?? 30_000)) {
          lastSweep = Date.now();
          await requeueStaleDeliveries(deps);
        }
        if (moved > 0) continue;
      } catch (error) {
        options.onError?.(error);
      }
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
    },
  };
}
