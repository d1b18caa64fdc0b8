import { Type } from '@sinclair/typebox';
import { defineJob, type JobQueue } from '@platform/service';
import { outreachSql } from './outreach-sql.js';
import { runOutreach } from './run.js';

/** A run whose job has not completed it after this long is run by the sweeper. */
export const OUTREACH_SWEEP_AFTER_MS = 2 * 60_000;

export const OUTREACH_JOB = defineJob({
  name: 'outreach',
  description:
    "Announces the matches of a property that went on the market or got cheaper: one `prospect.matched` event per prospect reachable for outreach whose profile scores at least the account's threshold (idempotent: a rerun announces nothing twice).",
  payload: Type.Object({ run_id: Type.String() }, { additionalProperties: false }),
  retry: { attempts: 3, backoffMs: 10_000 },
  run: async ({ db, now }, { run_id }) => ({ run_id, ...(await runOutreach(db, run_id, now)) }),
});

export const SWEEP_OUTREACH_JOB = defineJob({
  name: 'sweep-outreach',
  description: `Runs every outreach run still open ${OUTREACH_SWEEP_AFTER_MS / 60_000} minutes after its property change (its job lost with Redis, never enqueued, or failed), oldest first, up to 20 a minute; removes the daily counters of days that are over.`,
  payload: Type.Object({}, { additionalProperties: false }),
  schedule: { pattern: '* * * * *', tz: 'UTC' },
  retry: { attempts: 1, backoffMs: 0 },
  run: async ({ db, now }) => {
    const pending = await outreachSql.pendingRuns(db, new Date(now.getTime() - OUTREACH_SWEEP_AFTER_MS), 20);
    let announced = 0;
    for (const id of pending) announced += (await runOutreach(db, id, now)).announced;
    const pruned = await outreachSql.pruneDailyCounts(db, now);
    return { runs: pending.length, announced, pruned_daily_counts: pruned };
  },
});

/** Puts a run on the worker's queue (one job per run). */
export const enqueueOutreach = (jobs: JobQueue, runId: string) =>
  jobs.enqueue(OUTREACH_JOB, { run_id: runId }, `outreach-${runId}`);
