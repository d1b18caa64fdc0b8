import { Type } from '@sinclair/typebox';
import type { Db, PrismaClient } from '@platform/db';
import { applicationIdsOfAccount } from '@platform/auth';
import { IDEMPOTENCY_KEY_TTL_MS } from './idempotency.js';
import { defineJob } from './jobs.js';

/**
 * Deletes idempotency keys older than 24 h (they count as absent already), in batches so that
 * one night's backlog never holds a long lock. Resolves to the number removed.
 */
export async function pruneIdempotencyKeys(db: PrismaClient, now: Date, { batchSize = 10_000 } = {}): Promise<number> {
  const before = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
  let total = 0;
  for (;;) {
    const [{ count }] = await db.$queryRaw<{ count: number }[]>`
      WITH batch AS (
        SELECT application_id, key FROM idempotency_keys WHERE created_at <= ${before} LIMIT ${batchSize}
      ), removed AS (
        DELETE FROM idempotency_keys k USING batch b
        WHERE k.application_id = b.application_id AND k.key = b.key RETURNING 1
      )
      SELECT count(*)::int AS count FROM removed`;
    total += count;
    if (count < batchSize) return total;
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
