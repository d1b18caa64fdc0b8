import type { Static, TSchema } from '@sinclair/typebox';
import type { PrismaClient } from '@platform/db';
import type { Sandbox } from '@platform/sandbox';
import type { BlobStorage } from '@platform/storage';

/** Puts a job on the worker's queue; the same `jobId` twice is one job. */
export interface JobQueue {
  enqueue(job: Pick<JobDefinition, 'name' | 'retry'>, payload: Record<string, unknown>, jobId: string): Promise<void>;
  /** Whether the queue knows the job (`unknown`: never added, removed, or lost with its Redis). */
  state?(jobId: string): Promise<string>;
}

export interface JobContext {
  db: PrismaClient;
  now: Date;
  /** Where generated documents go (the same store as uploads). */
  storage: BlobStorage;
  /** Where documents are rendered (child processes with limits: a renderer's failure fails one document). */
  sandbox: Sandbox;
  /** For a job that hands follow-up work to the worker (the sweeper re-enqueues stuck documents). */
  jobs: JobQueue;
}

/**
 * A job of a service: run on its schedule or when enqueued by the worker (`pnpm start` runs the
 * worker too) and by hand with `pnpm cli jobs run <name>`. All read the same catalogue.
 */
export interface JobDefinition<P extends TSchema = TSchema> {
  name: string;
  description: string;
  /** What a run is given; a scheduled run gets `{}`, so a scheduled job's fields must be optional. */
  payload: P;
  /** Cron pattern and time zone, e.g. `0 3 * * *` in `Europe/Berlin`; none: only when enqueued or by hand. */
  schedule?: { pattern: string; tz: string };
  /** Attempts in all (1 = no retry) and the fixed pause between them. */
  retry: { attempts: number; backoffMs: number };
  run(context: JobContext, payload: Static<P>): Promise<Record<string, unknown>>;
}

export type JobCatalogue = readonly JobDefinition[];

/** Declares one job with its payload type checked against its schema. */
export function defineJob<P extends TSchema>(job: JobDefinition<P>): JobDefinition {
  return job as unknown as JobDefinition;
}

/** A job refusing its input (a period not closed yet, an unknown account): the CLI prints the message as the operator's mistake, without a stack. */
export class JobRefusal extends Error {}
