import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { PrismaClient } from '@platform/db';
import { defineJob, type JobCatalogue, type JobDefinition } from '@platform/service';
import { DELIVERY_HISTORY_DAYS, pruneDeliveryHistory } from '@platform/webhooks';

export const SCHEDULED_JOBS_QUEUE = 'scheduled-jobs';

/** Part of the webhook mechanism of every service: the worker always schedules it. */
export const WEBHOOK_HISTORY_JOB = defineJob({
  name: 'prune-webhook-history',
  description: `Removes webhook events relayed more than ${DELIVERY_HISTORY_DAYS} days ago whose deliveries are all finished.`,
  payload: Type.Object({}, { additionalProperties: false }),
  schedule: { pattern: '30 3 * * *', tz: 'Europe/Berlin' },
  retry: { attempts: 3, backoffMs: 60_000 },
  run: async ({ db, now }) => ({ removed_events: await pruneDeliveryHistory(db, now), kept_days: DELIVERY_HISTORY_DAYS }),
});

/** The jobs of the given services plus the deployment's own; names are unique across them. */
export function jobsOf(services: readonly { jobs: JobCatalogue }[]): JobCatalogue {
  const jobs = [...services.flatMap((service) => service.jobs), WEBHOOK_HISTORY_JOB];
  const names = jobs.map((job) => job.name);
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length > 0) throw new Error(`Job names must be unique; twice: ${twice.join(', ')}.`);
  return jobs;
}

/** Runs one job with a payload checked against its schema (the CLI and the worker both come here). */
export async function runJob(job: JobDefinition, db: PrismaClient, now: Date, payload: unknown = {}): Promise<Record<string, unknown>> {
  if (!Value.Check(job.payload, payload)) throw new Error(`Job ${job.name}: the payload does not match its schema.`);
  return job.run({ db, now }, payload);
}

/** Registers (or updates) each scheduled job's scheduler; idempotent, so every worker start may call it. */
export async function registerSchedules(queue: Queue, jobs: JobCatalogue): Promise<void> {
  for (const job of jobs) {
    if (!job.schedule) continue;
    await queue.upsertJobScheduler(
      job.name,
      { pattern: job.schedule.pattern, tz: job.schedule.tz },
      { name: job.name, data: {}, opts: { attempts: job.retry.attempts, backoff: { type: 'fixed', delay: job.retry.backoffMs } } },
    );
  }
}

export function startScheduledJobs(db: PrismaClient, connection: ConnectionOptions, jobs: JobCatalogue, log: (line: string) => void) {
  const queue = new Queue(SCHEDULED_JOBS_QUEUE, { connection });
  const byName = new Map(jobs.map((j) => [j.name, j]));
  const worker = new Worker(
    SCHEDULED_JOBS_QUEUE,
    async (job) => {
      const definition = byName.get(job.name);
      if (!definition) return { skipped: true };
      const result = await runJob(definition, db, new Date(), job.data ?? {});
      log(`job ${job.name} done: ${JSON.stringify(result)}`);
      return result;
    },
    { connection, concurrency: 1 },
  );
  return {
    ready: registerSchedules(queue, jobs),
    async stop() {
      await worker.close();
      await queue.close();
    },
  };
}
