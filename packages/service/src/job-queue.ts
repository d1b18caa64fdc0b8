import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { Value } from '@sinclair/typebox/value';
import {
  logJobRun,
  type JobCatalogue,
  type JobContext,
  type JobDefinition,
  type JobQueue,
  type JobRunLog,
} from './jobs.js';

/** The one BullMQ queue of the services' jobs (scheduled and enqueued ones alike). */
export const JOBS_QUEUE = 'scheduled-jobs';

/** How many jobs one worker runs at once (document rendering is CPU-bound; scheduled jobs are rare). */
export const JOB_CONCURRENCY = 4;

/**
 * The queue as the APIs use it. Completed and failed jobs are kept briefly only: a `jobId` is
 * then free again, and the sweepers re-enqueue under a new one anyway.
 */
export function createJobQueue(
  connection: ConnectionOptions,
  prefix?: string,
): Required<JobQueue> & { queue: Queue; close(): Promise<void> } {
  const queue = new Queue(JOBS_QUEUE, { connection, ...(prefix ? { prefix } : {}) });
  return {
    queue,
    async enqueue(job, payload, jobId) {
      await queue.add(job.name, payload, {
        jobId,
        attempts: job.retry.attempts,
        backoff: { type: 'fixed', delay: job.retry.backoffMs },
        removeOnComplete: { age: 3600, count: 1000 },
        removeOnFail: { age: 24 * 3600 },
      });
    },
    state: (jobId) => queue.getJobState(jobId),
    close: () => queue.close(),
  };
}

/** Runs one job with a payload checked against its schema (the CLI and the worker both come here). */
export async function runJob(
  job: JobDefinition,
  context: JobContext,
  payload: unknown = {},
): Promise<Record<string, unknown>> {
  if (!Value.Check(job.payload, payload)) throw new Error(`Job ${job.name}: the payload does not match its schema.`);
  return job.run(context, payload);
}

/** A BullMQ worker that runs the catalogue's jobs by name; unknown names are skipped. */
export function startJobWorker(
  jobs: JobCatalogue,
  context: () => JobContext,
  options: { connection: ConnectionOptions; prefix?: string; concurrency?: number; log?: JobRunLog },
): Worker {
  const byName = new Map(jobs.map((j) => [j.name, j]));
  return new Worker(
    JOBS_QUEUE,
    async (job) => {
      const definition = byName.get(job.name);
      if (!definition) return { skipped: true };
      const result = await runJob(definition, context(), job.data ?? {});
      if (options.log) logJobRun(options.log, job.name, result);
      return result;
    },
    {
      connection: options.connection,
      concurrency: options.concurrency ?? JOB_CONCURRENCY,
      ...(options.prefix ? { prefix: options.prefix } : {}),
    },
  );
}
