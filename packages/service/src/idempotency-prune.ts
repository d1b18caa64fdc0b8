import { Type } from '@sinclair/typebox';
import type { Db, PrismaClient } from '@platform/db';
import { applicationIdsOfAccount } from '@platform/auth';
import { IDEMPOTENCY_KEY_TTL_MS } from './idempotency.js';
import { defineJob } from './jobs.js';

/**
 * Deletes idempotency keys older than 24 h (they count as absent already), in batches so that
 * one night's backlog never holds a long lock. Resolves to the number removed. Safe to run twice
 * at once (a manual run during the nightly one): each key is removed and counted by one run.
 */
export async function pruneIdempotencyKeys(db: PrismaClient, now: Date, { batchSize = 10_000 } = {}): Promise<number> {
  const before = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
  let total = 0;
  for (;;) {
    // `created_at <= before` again in the DELETE: a key the statement waited on may have been claimed
    // again meanwhile (its 24 h were over: the hook's ON CONFLICT DO UPDATE), and is then a running
    // request's; PostgreSQL re-checks the DELETE's own condition on the row after the wait, not the
    // batch's. A key another run removed meanwhile is simply not there any more (not counted).
    // A run stops when its batch came out short, not when it removed fewer than a batch: one that
    // lost its batch to another run goes on, and reaches what only its own (later) cutoff covers.
    const [{ selected, removed }] = await db.$queryRaw<{ selected: number; removed: number }[]>`
      WITH batch AS (
        SELECT application_id, key FROM idempotency_keys WHERE created_at <= ${before} LIMIT ${batchSize}
      ), removed AS (
        DELETE FROM idempotency_keys k USING batch b
        WHERE k.application_id = b.application_id AND k.key = b.key AND k.created_at <= ${before} RETURNING 1
      )
      SELECT (SELECT count(*) FROM batch)::int AS selected, (SELECT count(*) FROM removed)::int AS removed`;
    total += removed;
    if (selected < batchSize) return total;
  }
}

/** Part of every service's idempotency: the worker schedules it nightly. */
export const IDEMPOTENCY_PRUNE_JOB = defineJob({
  name: 'prune-idempotency-keys',
  description: 'Removes Idempotency-Key records (and their stored responses) older than 24 hours.',
  payload: Type.Object({}, { additionalProperties: false }),
  schedule: { pattern: '45 3 * * *', tz: 'Europe/Berlin' },
  retry: { attempts: 3, backoffMs: 60_000 },
  run: async ({ db, now }) => ({ removed_keys: await pruneIdempotencyKeys(db, now) }),
});

/**
 * Drops the stored responses of an account that mention `text` (e.g. an erased prospect's id):
 * a replay must not bring back personal data that was erased at the data subject's request.
 */
export async function forgetStoredResponsesMentioning(db: Db, accountId: string, text: string): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_keys
    WHERE application_id IN (${applicationIdsOfAccount(accountId)})
      AND response_body IS NOT NULL AND position(convert_to(${text}, 'UTF8') IN response_body) > 0`;
}
