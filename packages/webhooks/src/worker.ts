import { isDatabaseUnavailable } from '@platform/db';
import { DelayedError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { attemptDelivery, type DeliveryDeps } from './delivery.js';
import { purgeDeletedEndpoints } from './endpoint-sql.js';
import { DELIVERY_QUEUE, enqueueDeliveries, type DeliveryJob } from './queue.js';
import {
  EnqueueFailed,
  enqueueRequestedDeliveries,
  failDelivery,
  RELAY_BATCH_SIZE,
  relayOnce,
  requeueStaleDeliveries,
  type RelayDeps,
} from './relay.js';
import { RETRY_DELAYS_MS } from './schedule.js';
import { advanceRedeliveries } from './redelivery-sql.js';
import { sendEndpointAlerts, type AlertSettings } from './alerts.js';

export interface WorkerOptions {
  connection: ConnectionOptions;
  prefix?: string;
  concurrency?: number;
  /** How long a running job is owned before another worker takes it over (BullMQ stalled-job check). */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Told of a job's error other than the receiver's failure (that one is recorded as an attempt). */
  onJobError?: (error: Error) => void;
}

/** A failed attempt: BullMQ runs the job again after the schedule's delay. */
class DeliveryRetry extends Error {
  constructor() {
    super('delivery attempt failed; the next follows the retry schedule');
    this.name = 'DeliveryRetry';
  }
}

/** The first wait of a job that found the database unavailable; it doubles with every further one, up to the last. */
const DATABASE_WAIT_MS = 1_000;
const DATABASE_WAIT_MAX_MS = 30_000;

/**
 * A job that found the database unavailable runs again soon, and the run does not count as an
 * attempt: an outage of the platform's own must neither use up the receiver's retry schedule nor
 * delay its deliveries by the schedule's first step (a minute). The runs of the job that were not
 * counted (BullMQ counts runs and attempts apart) set the wait: a job that waited before, in this
 * outage or an earlier one, or was taken over after a stall, waits longer, at most 30 s.
 * Should the move itself fail (Redis gone too, the lock lost), the database's error goes to BullMQ
 * as any other, and the attempt counts.
 */
async function waitForDatabase(job: Job<DeliveryJob>, token: string, error: unknown): Promise<never> {
  const waits = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
  try {
    await job.moveToDelayed(Date.now() + Math.min(DATABASE_WAIT_MS * 2 ** waits, DATABASE_WAIT_MAX_MS), token);
  } catch {
    throw error;
  }
  throw new DelayedError();
}

/**
 * The delivery worker: one attempt per job run; a failed attempt throws, and BullMQ runs the
 * job again after the schedule's delay (job id = delivery id, same event id every time). A
 * database that cannot be reached delays the job without counting the attempt (an attempt that
 * reached the receiver but could not be recorded is sent again: deliveries are at least once).
 * Other errors (bookkeeping) are retried on the schedule; when they use up the last run, the
 * delivery is marked `failed` with the reason (should that write fail too, the relay's sweep
 * does it: see `requeueStaleDeliveries`).
 */
export function startDeliveryWorker(deps: DeliveryDeps, options: WorkerOptions): Worker<DeliveryJob> {
  const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
  const worker = new Worker<DeliveryJob>(
    DELIVERY_QUEUE,
    async (job, token) => {
      let outcome;
      try {
        outcome = await attemptDelivery(deps, job.data.deliveryId, job.attemptsMade + 1);
      } catch (error) {
        if (token && isDatabaseUnavailable(error)) {
          options.onJobError?.(error as Error); // a classified fault: the log folds the repeats of an outage
          return waitForDatabase(job, token, error);
        }
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
          const reason = `The worker could not complete the delivery: ${error instanceof Error ? error.message : String(error)}`;
          await failDelivery(deps.db, job.data.deliveryId, deps.now(), reason).catch(() => undefined);
        }
        throw error;
      }
      if (outcome === 'retry') throw new DeliveryRetry();
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
  worker.on('failed', (_job, error) => {
    if (!(error instanceof DeliveryRetry)) options.onJobError?.(error);
  });
  return worker;
}

const REDELIVERY_IDLE_CHECK_MS = 1_000;

/**
 * Runs the relay until stopped: drains the outbox and the deliveries marked for a new job
 * (resume, retry, bulk redeliveries: one batch of one redelivery per pass), then polls; now and
 * then repairs lost or failed jobs, removes deleted endpoints' history in batches and alerts the
 * owners of failing or paused endpoints.
 */
export function startRelay(
  deps: RelayDeps,
  options: {
    intervalMs?: number;
    sweepEveryMs?: number;
    onError?: (error: unknown) => void;
    /** E-mails to the owners of failing and paused endpoints, checked on every sweep. */
    alerts?: AlertSettings;
  } = {},
) {
  let running = true;
  let lastSweep = 0;
  let nextRedeliveryCheck = 0;
  const alerts = options.alerts;
  if (alerts && !alerts.smtp)
    alerts.log(
      'webhook alerts are not e-mailed: SMTP_URL is not set (owners of failing or paused endpoints hear nothing)',
    );
  // Beside the loop, never awaited by it: an SMTP server that does not answer must not hold up the relay.
  let alerting: Promise<void> | undefined;
  const checkAlerts = () => {
    if (!alerts?.smtp || alerting) return;
    const smtp = alerts.smtp;
    alerting = sendEndpointAlerts(deps.db, deps.now, { ...alerts, smtp })
      .then(
        () => undefined,
        (error: unknown) => options.onError?.(error),
      )
      .finally(() => {
        alerting = undefined;
      });
  };
  // Committed deliveries whose jobs were lost with a Redis connection: added again at once when it is
  // back, not only by the sweep a minute later (job id = delivery id: adding twice adds nothing).
  const unqueued = new Set<string>();
  const done = (async () => {
    while (running) {
      try {
        if (unqueued.size > 0) {
          const ids = [...unqueued];
          await enqueueDeliveries(deps.queue, ids);
          for (const id of ids) unqueued.delete(id);
        }
        const moved = await relayOnce(deps).catch((error: unknown) => {
          if (error instanceof EnqueueFailed) for (const id of error.deliveryIds) unqueued.add(id);
          throw error;
        });
        const requeued = await enqueueRequestedDeliveries(deps);
        // Checked once a second while none runs or the running ones wait: an idle pass stays as cheap as before.
        let redelivered = 0;
        if (Date.now() >= nextRedeliveryCheck) {
          redelivered = await advanceRedeliveries(deps.db, deps.now);
          if (redelivered === 0) nextRedeliveryCheck = Date.now() + REDELIVERY_IDLE_CHECK_MS;
        }
        if (Date.now() - lastSweep > (options.sweepEveryMs ?? 30_000)) {
          lastSweep = Date.now();
          await requeueStaleDeliveries(deps);
          await purgeDeletedEndpoints(deps.db);
          checkAlerts();
        }
        // Only a full batch means more are waiting. Under a steady stream of events a pass per few
        // events cost the API's process (under `pnpm start`) four round trips each, back to back;
        // now a pass takes what arrived in the last interval (issue 34, bench/RESULTS.md).
        if (moved >= (deps.batchSize ?? RELAY_BATCH_SIZE) || requeued > 0 || redelivered > 0) continue;
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
      await alerting;
    },
  };
}
