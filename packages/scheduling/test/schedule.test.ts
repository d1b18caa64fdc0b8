import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@platform/http';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';
import { applyScheduleAction, checkTimeRange, withoutDoubleBooking, type ScheduleKind } from '../src/index.js';

// A scheduled table of the shape the package expects, made for this test (the package knows no app table).
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.$executeRawUnsafe(`CREATE TABLE test_bookings (
    id text PRIMARY KEY, host text NOT NULL, status "ScheduleStatus" NOT NULL DEFAULT 'proposed',
    starts_at timestamptz NOT NULL, ends_at timestamptz NOT NULL,
    during tstzrange GENERATED ALWAYS AS (tstzrange(starts_at, ends_at, '[)')) STORED,
    sequence int NOT NULL DEFAULT 0, history jsonb NOT NULL DEFAULT '[]',
    confirmed_by text, confirmed_at timestamptz, cancelled_by text, cancel_reason text, cancelled_at timestamptz, completed_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT test_bookings_host_overlap EXCLUDE USING gist (host WITH =, during WITH &&) WHERE (status IN ('proposed', 'confirmed')))`);
});
afterAll(() => db.drop());

const kind: ScheduleKind = {
  table: 'test_bookings',
  noun: 'booking',
  sides: ['host', 'guest'],
  reasons: ['other'],
  overlaps: { test_bookings_host_overlap: { field: 'host', columns: ['host'] } },
};
const at = new Date('2026-11-23T12:00:00Z');
const range = (from: string, to: string) => checkTimeRange({ starts_at: from, ends_at: to }, at);
const insert = (id: string, host: string, r: { start: Date; end: Date }) =>
  withoutDoubleBooking(db.prisma, kind, { range: r, participants: { host } }, (tx) =>
    tx.$executeRawUnsafe(
      'INSERT INTO test_bookings (id, host, starts_at, ends_at) VALUES ($1, $2, $3, $4)',
      id,
      host,
      r.start,
      r.end,
    ),
  );
const row = async (id: string) =>
  (
    await db.query<Record<string, unknown>>(
      'SELECT status::text AS status, sequence, history, cancelled_by, cancel_reason FROM test_bookings WHERE id = $1',
      [id],
    )
  )[0];
const apiError = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ApiError,
  );

describe('time ranges', () => {
  it('refuses the past, an end not after the start and more than 8 hours, each as a detail', () => {
    const problems = (from: string, to: string) => {
      try {
        range(from, to);
        return [];
      } catch (error) {
        return (error as ApiError).details;
      }
    };
    expect(problems('2026-11-23T11:59:00Z', '2026-11-23T13:00:00Z')).toEqual([
      { field: 'starts_at', reason: 'out_of_range' },
    ]);
    expect(problems('2026-11-24T10:00:00Z', '2026-11-24T10:00:00Z')).toEqual([
      { field: 'ends_at', reason: 'out_of_range' },
    ]);
    expect(problems('2026-11-24T10:00:00Z', '2026-11-24T18:00:01Z')).toEqual([
      { field: 'ends_at', reason: 'out_of_range' },
    ]);
    expect(problems('2026-11-24T10:00:00+01:00', '2026-11-24T18:00:00+01:00')).toEqual([]);
  });
});

describe('double booking', () => {
  it('lets one of two racing bookings of the same host win; the other is 409 naming the winner', async () => {
    const r = range('2026-12-01T10:00:00Z', '2026-12-01T11:00:00Z');
    const results = await Promise.allSettled([insert('b1', 'anna', r), insert('b2', 'anna', r)]);
    const lost = results.filter((x) => x.status === 'rejected');
    expect(lost).toHaveLength(1);
    const error = (lost[0] as PromiseRejectedResult).reason as ApiError;
    const winner = results[0].status === 'fulfilled' ? 'b1' : 'b2';
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('conflict');
    expect(error.details).toEqual([{ field: 'host', reason: 'overlaps', conflicting_id: winner }]);
    // Another host at the same time, and the same host right after, are fine.
    await insert('b3', 'ben', r);
    await insert('b4', 'anna', range('2026-12-01T11:00:00Z', '2026-12-01T12:00:00Z'));
  });

  it('answers many concurrent overlapping bookings of one host with successes and 409s only, and books no overlap', async () => {
    const day = Date.parse('2026-12-10T08:00:00Z');
    const attempts = Array.from({ length: 30 }, (_, i) => {
      const start = day + ((i * 7) % 12) * 15 * 60_000;
      return insert(`m${i}`, 'mia', { start: new Date(start), end: new Date(start + 45 * 60_000) });
    });
    const results = await Promise.allSettled(attempts);
    const failures = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason as ApiError);
    expect(failures.filter((error) => !(error instanceof ApiError && error.code === 'conflict')).map(String)).toEqual(
      [],
    );
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    const overlaps =
      await db.query(`SELECT a.id FROM test_bookings a JOIN test_bookings b ON a.host = b.host AND a.id < b.id AND a.during && b.during
                                     WHERE a.host = 'mia' AND a.status IN ('proposed', 'confirmed') AND b.status IN ('proposed', 'confirmed')`);
    expect(overlaps).toEqual([]);
  });

  it('frees the time when a booking is cancelled', async () => {
    const r = range('2026-12-02T10:00:00Z', '2026-12-02T11:00:00Z');
    await insert('c1', 'carl', r);
    await applyScheduleAction(db.prisma, kind, 'c1', { action: 'cancel', by: 'guest', reason: 'other' }, at);
    await insert('c2', 'carl', r);
  });
});

describe('the state machine', () => {
  it('confirms, reschedules (history, sequence, back to proposed), completes; illegal actions are 409', async () => {
    await insert('s1', 'dora', range('2026-12-03T10:00:00Z', '2026-12-03T11:00:00Z'));
    expect((await apiError(applyScheduleAction(db.prisma, kind, 's1', { action: 'complete' }, at)))?.code).toBe(
      'invalid_transition',
    );
    await applyScheduleAction(db.prisma, kind, 's1', { action: 'confirm', by: 'guest' }, at);
    expect(
      (await apiError(applyScheduleAction(db.prisma, kind, 's1', { action: 'confirm', by: 'host' }, at)))?.code,
    ).toBe('invalid_transition');
    await applyScheduleAction(
      db.prisma,
      kind,
      's1',
      { action: 'reschedule', range: range('2026-12-04T10:00:00Z', '2026-12-04T11:00:00Z') },
      at,
    );
    expect(await row('s1')).toMatchObject({
      status: 'proposed',
      sequence: 1,
      history: [{ starts_at: '2026-12-03T10:00:00+00:00', ends_at: '2026-12-03T11:00:00+00:00' }],
    });
    await applyScheduleAction(db.prisma, kind, 's1', { action: 'confirm', by: 'host' }, at);
    await applyScheduleAction(db.prisma, kind, 's1', { action: 'complete' }, at);
    const cancelLate = await apiError(
      applyScheduleAction(db.prisma, kind, 's1', { action: 'cancel', by: 'host', reason: 'other' }, at),
    );
    expect(cancelLate?.code).toBe('invalid_transition');
    expect(cancelLate?.message).toContain('completed');
    expect((await row('s1')).status).toBe('completed');
  });
});
