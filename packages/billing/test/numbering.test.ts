import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';
import { formatInvoiceNumber, nextInvoiceNumber } from '../src/index.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.account.createMany({
    data: [
      { id: 'acct_a', name: 'A' },
      { id: 'acct_b', name: 'B' },
    ],
  });
});
afterAll(() => db.drop());

const take = (account: string, series = 'commission', year = 2026) =>
  inTransaction(db.prisma, (tx) => nextInvoiceNumber(tx, account, series, year));

describe('invoice numbers', () => {
  it('counts per account, series and year from 000001', async () => {
    expect(formatInvoiceNumber(2026, 1)).toBe('2026-000001');
    expect(formatInvoiceNumber(2026, 1_234_567)).toBe('2026-1234567');
    expect((await take('acct_a')).number).toBe('2026-000001');
    expect((await take('acct_a')).number).toBe('2026-000002');
    expect((await take('acct_b')).number).toBe('2026-000001');
    expect((await take('acct_a', 'chargeback')).number).toBe('2026-000001');
    expect((await take('acct_a', 'commission', 2027)).number).toBe('2027-000001');
  });

  it('gives the number of a rolled-back invoice to the next one: no gap', async () => {
    await expect(
      inTransaction(db.prisma, async (tx) => {
        await nextInvoiceNumber(tx, 'acct_a', 'gaps', 2026);
        throw new Error('the invoice could not be written');
      }),
    ).rejects.toThrow('could not be written');
    expect((await take('acct_a', 'gaps')).number).toBe('2026-000001');
  });

  it('gives 50 concurrent invoices the numbers 1 to 50, each once', async () => {
    const numbers = await Promise.all(Array.from({ length: 50 }, () => take('acct_b', 'race')));
    expect(numbers.map((n) => n.sequence).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
