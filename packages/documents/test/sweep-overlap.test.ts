// Issue 33, item 1: the `sweep-*` jobs of documents run twice at once (two workers, or a stalled run taken
// over) sweep each stuck document once: one new sweep number, one job enqueued, one failure at the last,
// and the two runs' counts add up to what was swept. The overlap is forced: a transaction holds the
// documents' rows while both runs start, so both pick the same documents and wait on them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, whileHeld, type TestDatabase } from '@platform/testkit';
import { MAX_SWEEPS, STUCK_AFTER_MS, sweepDocuments } from '../src/index.js';
import { CREATE_TABLE, TABLE } from './fixtures/kind.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.$executeRawUnsafe(CREATE_TABLE);
});
afterAll(() => db.drop());

const insert = (id: string, updatedAt: Date, sweeps = 0) =>
  db.prisma.$executeRawUnsafe(
    `INSERT INTO ${TABLE} (id, account_id, body, sweeps, updated_at) VALUES ($1, 'acct', 'stuck', $2, $3)`,
    id,
    sweeps,
    updatedAt,
  );

const rows = () =>
  db.prisma.$queryRawUnsafe<{ id: string; status: string; sweeps: number }[]>(
    `SELECT id, status::text AS status, sweeps FROM ${TABLE} ORDER BY id`,
  );

/** Ten documents stuck (`r0`…`r9`), two stuck after their last sweep (`l0`, `l1`: they fail), one fresh. */
async function documents(now: Date) {
  await db.prisma.$executeRawUnsafe(`DELETE FROM ${TABLE}`);
  const stuck = new Date(now.getTime() - STUCK_AFTER_MS - 60_000);
  const retry = Array.from({ length: 10 }, (_, n) => `r${n}`);
  const last = ['l0', 'l1'];
  for (const id of retry) await insert(id, stuck);
  for (const id of last) await insert(id, stuck, MAX_SWEEPS);
  await insert('fresh', now);
  return { retry, last };
}

/** Two sweeps at `now`, started while a transaction holds the rows `held`; each enqueue recorded. */
async function twoSweepsWhileHeld(now: Date, held: string[]) {
  const enqueued: string[] = [];
  const sweep = () =>
    sweepDocuments({ db: db.prisma, now }, { table: TABLE }, async (id, n) => void enqueued.push(`${id}#${n}`));
  const { result, waited } = await whileHeld(
    db,
    (tx) => tx.$queryRawUnsafe(`SELECT id FROM ${TABLE} WHERE id = ANY ($1) FOR UPDATE`, held),
    () => Promise.all([sweep(), sweep()]),
    2,
  );
  return { result, waited, enqueued };
}

describe('overlapping document sweeps', () => {
  // The sweep is two statements (fail those at their last sweep, then count and re-enqueue the rest):
  // each is made to overlap in turn, by holding the rows only that statement changes.
  it('two sweeps that both wait on the same stuck documents give each one new sweep and one job: 10 together, not 10 each', async () => {
    const now = new Date();
    const { retry, last } = await documents(now);
    const { result, waited, enqueued } = await twoSweepsWhileHeld(now, retry);
    expect(waited).toBe(2);
    expect(result[0].retried + result[1].retried).toBe(retry.length);
    expect(result[0].failed + result[1].failed).toBe(last.length);
    expect(enqueued.sort()).toEqual(retry.map((id) => `${id}#1`).sort());
    expect(await rows()).toEqual([
      { id: 'fresh', status: 'generating', sweeps: 0 },
      ...last.map((id) => ({ id, status: 'failed', sweeps: MAX_SWEEPS })),
      ...retry.sort().map((id) => ({ id, status: 'generating', sweeps: 1 })),
    ]);
  });

  it('two sweeps that both wait on the same documents at their last sweep fail each once: 2 together, not 2 each', async () => {
    const now = new Date();
    const { retry, last } = await documents(now);
    const { result, waited, enqueued } = await twoSweepsWhileHeld(now, last);
    expect(waited).toBe(2);
    expect(result[0].failed + result[1].failed).toBe(last.length);
    expect(result[0].retried + result[1].retried).toBe(retry.length);
    expect(enqueued.sort()).toEqual(retry.map((id) => `${id}#1`).sort()); // a failed document is not enqueued
    expect(await rows()).toEqual([
      { id: 'fresh', status: 'generating', sweeps: 0 },
      ...last.map((id) => ({ id, status: 'failed', sweeps: MAX_SWEEPS })),
      ...retry.sort().map((id) => ({ id, status: 'generating', sweeps: 1 })),
    ]);
  });
});
