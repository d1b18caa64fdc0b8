import { Type } from '@sinclair/typebox';
import type { ConnectionOptions } from 'bullmq';
import {
  IDEMPOTENCY_PRUNE_JOB,
  JOBS_QUEUE,
  createJobQueue,
  defineJob,
  startJobWorker,
  type JobCatalogue,
  type JobContext,
  type JobRunLog,
} from '@platform/service';
import { DELIVERY_HISTORY_DAYS, pruneDeliveryHistory } from '@platform/webhooks';
import { KEY_ROTATION_DAYS, sendKeyAgeNotices } from '@platform/auth';

export { runJob } from '@platform/service';
export const SCHEDULED_JOBS_QUEUE = JOBS_QUEUE;

/** Part of the webhook mechanism of every service: the worker always schedules it. */
export const WEBHOOK_HISTORY_JOB = defineJob({
  name: 'prune-webhook-history',
  description: `Removes webhook events relayed more than ${DELIVERY_HISTORY_DAYS} days ago whose deliveries are all finished.`,
  payload: Type.Object({}, { additionalProperties: false }),
  schedule: { pattern: '30 3 * * *', tz: 'Europe/Berlin' },
  retry: { attempts: 3, backoffMs: 60_000 },
  // What it removed only (the days kept are in the description): a run that removed nothing is idle.
  run: async ({ db, now }) => ({ removed_events: await pruneDeliveryHistory(db, now) }),
});

/** Mails each application's owner once when one of its keys turns 90 days old; nothing without SMTP_URL. */
export const keyAgeNoticeJob = (smtp: { url: string; from: string } | undefined) =>
  defineJob({
    name: 'notify-old-api-keys',
    description: `Tells the owner of each application by e-mail, once per key, that an active API key is ${KEY_ROTATION_DAYS} days old and should be rolled (SMTP_URL; unset: counted, nothing sent).`,
    payload: Type.Object({}, { additionalProperties: false }),
    schedule: { pattern: '0 9 * * *', tz: 'Europe/Berlin' },
    retry: { attempts: 3, backoffMs: 300_000 },
    run: async ({ db, now }) => ({ ...(await sendKeyAgeNotices(db, { now, smtp })) }),
  });

/** The jobs of the given services plus the deployment's own (webhook history, idempotency keys, key-age notices); names are unique across them. */
export function jobsOf(
  services: readonly { jobs: JobCatalogue }[],
  deployment: { smtp?: { url: string | undefined; from: string } } = {},
): JobCatalogue {
  const smtp = deployment.smtp?.url ? { url: deployment.smtp.url, from: deployment.smtp.from } : undefined;
  const jobs = [
    ...services.flatMap((service) => service.jobs),
    WEBHOOK_HISTORY_JOB,
    IDEMPOTENCY_PRUNE_JOB,
    keyAgeNoticeJob(smtp),
  ];
  const names = jobs.map((job) => job.name);
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length > 0) throw new Error(`Job names must be unique; twice: ${twice.join(', ')}.`);
  return jobs;
}

/** Registers (or updates) each scheduled job's scheduler; idempotent, so every worker start may call it. */
export async function registerSchedules(
  queue: ReturnType<typeof createJobQueue>['queue'],
  jobs: JobCatalogue,
): Promise<void> {
  for (const job of jobs) {
    if (!job.schedule) continue;
    await queue.upsertJobScheduler(
      job.name,
      { pattern: job.schedule.pattern, tz: job.schedule.tz },
      {
        name: job.name,
        data: {},
        // Every run leaves a job behind: keep a few for inspection, not one per night forever.
        opts: {
          attempts: job.retry.attempts,
          backoff: { type: 'fixed', delay: job.retry.backoffMs },
          removeOnComplete: { count: 50 },
          removeOnFail: { count: 200 },
        },
      },
    );
  }
}

/**
 * The worker's jobs: the schedules registered, and a worker running scheduled and enqueued jobs
 * alike. `log` hears of each finished run: at debug when it did nothing, at info when it did
 * something (a plain function hears only the latter).
 */
export function startScheduledJobs(
  context: Omit<JobContext, 'now' | 'jobs'>,
  connection: ConnectionOptions,
  jobs: JobCatalogue,
  log: JobRunLog,
  onFailure: (job: string) => void = () => {},
  onError: (error: unknown) => void = () => {},
) {
  const queue = createJobQueue(connection);
  const worker = startJobWorker(jobs, () => ({ ...context, now: new Date(), jobs: queue }), { connection, log });
  worker.on('failed', (job) => onFailure(job?.name ?? 'unknown'));
  worker.on('error', onError);
  queue.queue.on('error', onError);
  return {
    ready: registerSchedules(queue.queue, jobs),
    async stop() {
      await worker.close();
      await queue.close();
    },
  };
}
