// Issue 33, item 1: `prune-idempotency-keys` run twice at once (a manual run during the nightly one, or
// a stalled job taken over by a second worker) removes every expired key once, misses none, and the two
// runs' counts add up to what was removed. The overlap is forced: a transaction holds the keys' rows
// while the runs start.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTenant,
  createTestDatabase,
  TEST_SERVICES,
  untilLockWaiters,
  whileHeld,
  type TestDatabase,
} from '@platform/testkit';
import { pruneIdempotencyKeys } from '../src/idempotency-prune.js';

let db: TestDatabase;
let applicationId: string;
const HOUR = 3_600_000;
const now = new Date('2026-12-31T03:45:00Z');

beforeAll(async () => {
  db = await createTestDatabase();
  applicationId = (await createTenant(db.prisma, { service: TEST_SERVICES[0] })).applicationId;
});
afterAll(() => db.drop());
beforeEach(() => db.query('DELETE FROM idempotency_keys'));

let serial = 0;
/** Completed keys created at `createdAt`, inserted in this order. */
async function keys(count: number, createdAt: Date): Promise<string[]> {
  const made = Array.from({ length: count }, () => `key-${++serial}`);
  for (const key of made)
    await db.prisma.idempotencyKey.create({
      data: {
        application_id: applicationId,
        key,
        fingerprint: 'f',
        response_status: 201,
        response_body: Buffer.from('{}'),
        created_at: createdAt,
        completed_at: createdAt,
      },
    });
  return made;
}
const left = async (made: string[]) =>
  db.prisma.idempotencyKey.count({ where: { application_id: applicationId, key: { in: made } } });

const holdAll = (tx: Parameters<Parameters<typeof db.prisma.$transaction>[0]>[0]) =>
  tx.$queryRaw`SELECT key FROM idempotency_keys FOR UPDATE`;

describe('overlapping prune-idempotency-keys runs', () => {
  it('two runs started together remove each expired key once and report 12 together, not 12 each', async () => {
    const expired = await keys(12, new Date(now.getTime() - 25 * HOUR));
    const fresh = await keys(2, new Date(now.getTime() - 2 * HOUR));
    // Both runs pick the same first batch and wait on rows another session holds (as one run waits on
    // the other's); once released, each must skip what the other removed meanwhile.
    const { result, waited } = await whileHeld(
      db,
      holdAll,
      () =>
        Promise.all([
          pruneIdempotencyKeys(db.prisma, now, { batchSize: 5 }),
          pruneIdempotencyKeys(db.prisma, now, { batchSize: 5 }),
        ]),
      2,
    );
    expect(waited).toBe(2);
    expect(result[0] + result[1]).toBe(expired.length);
    expect(await left(expired)).toBe(0);
    expect(await left(fresh)).toBe(fresh.length);
  });

  it('a manual run an hour after the nightly one, while that one holds its batch, still removes what only its own cutoff reaches', async () => {
    const both = await keys(4, new Date(now.getTime() - 25 * HOUR)); // past both runs' cutoffs
    const laterOnly = await keys(2, new Date(now.getTime() - 23.5 * HOUR)); // past the manual run's only
    const manual = new Date(now.getTime() + HOUR);
    // The nightly run waits first on the held batch, then the manual run on the same rows: the nightly
    // run gets them first and removes them, so the manual run's first batch removes nothing.
    const { result, waited } = await whileHeld(
      db,
      holdAll,
      async () => {
        const nightly = pruneIdempotencyKeys(db.prisma, now, { batchSize: 2 });
        await untilLockWaiters(db, 1);
        return Promise.all([nightly, pruneIdempotencyKeys(db.prisma, manual, { batchSize: 2 })]);
      },
      2,
    );
    expect(waited).toBe(2);
    // All six were older than the later cutoff: none is left, each counted by one run.
    expect(await left([...both, ...laterOnly])).toBe(0);
    expect(result[0] + result[1]).toBe(both.length + laterOnly.length);
  });

  it('a key claimed again while the run waits on it (its 24 h were over) is the new request’s: not removed', async () => {
    const [reclaimed] = await keys(1, new Date(now.getTime() - 25 * HOUR));
    // What the idempotency hook's INSERT … ON CONFLICT DO UPDATE does to an expired key, not committed
    // yet while the run picks its batch: the row belongs to a request that is running now.
    const { result, waited } = await whileHeld(
      db,
      (tx) =>
        tx.$executeRaw`UPDATE idempotency_keys SET created_at = ${now}, completed_at = NULL, response_status = NULL, response_body = NULL
                       WHERE application_id = ${applicationId} AND key = ${reclaimed}`,
      () => pruneIdempotencyKeys(db.prisma, now, { batchSize: 5 }),
    );
    expect(waited).toBe(1);
    expect(result).toBe(0);
    expect(await left([reclaimed])).toBe(1);
  });
});
