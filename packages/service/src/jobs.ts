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
  /** Decrypts secrets stored at rest (the webhooks' secret box): a job that uses one fails without it. */
  secrets?: { decrypt(stored: string): string };
  /** Which hosts a job may connect to for a tenant (the webhooks' rule against private targets). */
  targets?: { allowPrivateTargets: boolean; sandbox?: boolean };
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

/**
 * Whether a run's result says it did nothing: every count in it is 0 and every list empty (nested
 * objects alike). Anything else (a count above 0, an id, an outcome) is work done. A job's result
 * therefore holds what it did, not its settings: a setting would read as work on every run.
 */
export function didNothing(result: unknown): boolean {
  if (result === null || result === undefined || result === false || result === 0) return true;
  if (Array.isArray(result)) return result.length === 0;
  if (typeof result === 'object') return Object.values(result).every(didNothing);
  return false;
}

/**
 * Where the worker tells each finished run: a run that did nothing at debug (an idle sweeper
 * every minute is no news), one that did something at info. A plain function takes the info
 * lines only.
 */
export type JobRunLog = ((line: string) => void) | { info(line: string): void; debug(line: string): void };

/** Tells one finished run at the level its result deserves (see `JobRunLog`). */
export function logJobRun(log: JobRunLog, name: string, result: Record<string, unknown>): void {
  const idle = didNothing(result);
  const line = `job ${name} done: ${JSON.stringify(result)}`;
  if (typeof log === 'function') {
    if (!idle) log(line);
  } else if (idle) log.debug(line);
  else log.info(line);
}

/** A job refusing its input (a period not closed yet, an unknown account): the CLI prints the message as the operator's mistake, without a stack. */
export class JobRefusal extends Error {}
