import type { SqlRunner } from '@platform/db';
import type { JobQueue } from '@platform/service';
import type { OfferImproved } from '../../properties/index.js';
import { enqueueOutreach } from './jobs.js';
import { outreachSql, type OutreachReason } from './outreach-sql.js';

const REASONS: Record<OfferImproved['kind'], OutreachReason> = {
  activated: 'aktivierung',
  price_lowered: 'preissenkung',
  // a first price completes the offer: announced as offered anew (no price was matched before)
  price_set: 'aktivierung',
};

/**
 * The property service's `onOfferImproved`: records the run in the change's transaction (so it
 * exists exactly when the change does) and enqueues its job after the commit; an enqueue that
 * fails is left to the sweeper.
 */
export function outreachTrigger(jobs: JobQueue, warn: (context: object, message: string) => void) {
  return async (tx: SqlRunner, { accountId, propertyId, kind, at }: OfferImproved) => {
    const runId = await outreachSql.insertRun(tx, { accountId, propertyId, reason: REASONS[kind], at });
    return async () => {
      try {
        await enqueueOutreach(jobs, runId);
      } catch (error) {
        warn({ err: error, outreach_run_id: runId }, 'outreach run not enqueued; the sweeper will run it');
      }
    };
  };
}
