import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';
import { eventsQuery } from '../src/events/events-sql.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

/** The plan of the statement, with sequential scans priced out so that a usable index shows. */
async function planOf(query: { text: string; values: unknown[] }): Promise<string> {
  return db.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
    const rows = await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${query.text}`, ...query.values);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

it("reads an account's events page, after a cursor, as a range of the (account, service, created_at, id) index", async () => {
  const plan = await planOf(
    eventsQuery({
      accountId: 'acct_1',
      service: 'property',
      types: ['property.created'],
      from: new Date('2026-11-01T00:00:00Z'),
      before: new Date('2026-11-20T00:00:00Z'),
      after: { createdAt: new Date('2026-11-10T00:00:00Z'), id: 'evt_x' },
      take: 26,
    }),
  );
  expect(plan).toMatch(/Index Scan Backward using outbox_events_account_id_service_created_at_id_idx/);
  expect(plan).toMatch(/Index Cond: .*account_id = .*created_at >= .*ROW\(created_at, id\) < /);
  expect(plan).not.toMatch(/Sort/);
});
