import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { PrismaClient } from '@platform/db';
import { DELIVERY_HISTORY_DAYS, pruneDeliveryHistory } from '@platform/webhooks';

/** A job that runs on a schedule in the worker and by hand with `pnpm cli jobs run <name>`. */
export interface ScheduledJob {
  name: string;
  /** Cron pattern and time zone, e.g. `0 3 * * *` in `Europe/Berlin`. */
  pattern: string;
  tz: string;
  run(db: PrismaClient, now: Date): Promise<Record<string, unknown>>;
}

export const SCHEDULED_JOBS_QUEUE = 'scheduled-jobs';

/** Part of the webhook mechanism of both services: the worker always schedules it. */
export const WEBHOOK_HISTORY_JOB: ScheduledJob = {
  name: 'prune-webhook-history',
  pattern: '30 3 * * *',
  tz: 'Europe/Berlin',
  run: async (db, now) => ({ removed_events: await pruneDeliveryHistory(db, now), kept_days: DELIVERY_HISTORY_DAYS }),
};

/** Registers (or updates) each job's scheduler; idempotent, so every worker start may call it. */
export async function registerSchedules(queue: Queue, jobs: readonly ScheduledJob[]): Promise<void> {
  for (const job of jobs) await queue.upsertJobScheduler(job.name, { pattern: job.pattern, tz: job.tz }, { name: job.name });
}

export function startScheduledJobs(db: PrismaClient, connection: ConnectionOptions, jobs: readonly ScheduledJob[], log: (line: string) => void) {
  const queue = new Queue(SCHEDULED_JOBS_QUEUE, { connection });
  const byName = new Map(jobs.map((j) => [j.name, j]));
  const worker = new Worker(
    SCHEDULED_JOBS_QUEUE,
    async (job) => {
      const definition = byName.get(job.name);
      if (!definition) return { skipped: true };
      const result = await definition.run(db, new Date());
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
