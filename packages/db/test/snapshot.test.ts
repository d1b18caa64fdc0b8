import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSnapshot, inTransaction } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('inSnapshot', () => {
  it('reads one snapshot: a row committed by another connection between two reads is not seen by the second', async () => {
    const seen = await inSnapshot(db.prisma, async (tx) => {
      const before = await tx.account.count();
      await db.prisma.account.create({ data: { id: 'acct_during', name: 'written meanwhile' } });
      const after = await tx.account.count();
      return { before, after };
    });
    expect(seen.after).toBe(seen.before);
    expect(await db.prisma.account.count()).toBe(seen.before + 1);
  });

  it('inside a transaction already, reads in that one (its own writes included)', async () => {
    const count = await inTransaction(db.prisma, async (tx) => {
      await tx.account.create({ data: { id: 'acct_inside', name: 'inside' } });
      return inSnapshot(tx, (same) => same.account.count({ where: { id: 'acct_inside' } }));
    });
    expect(count).toBe(1);
  });
});
