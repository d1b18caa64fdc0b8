// The direct reads and transactions behind Debian's PgBouncer 1.18 in transaction mode, which keeps
// no session state: what breaks with session settings and named statements, and that the
// settings for a pooler (no start-up options, unnamed statements) work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, inDirectTransaction, readRows, type PrismaClient } from '@platform/db';
import { createTestDatabase, startPgBouncer, type StartedPgBouncer, type TestDatabase } from '@platform/testkit';

let db: TestDatabase;
let bouncer: StartedPgBouncer;
const clients: PrismaClient[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  // One server connection: every client connection takes its turn on it.
  bouncer = await startPgBouncer(db.url, { poolSize: 1, timezone: 'UTC' });
});
afterAll(async () => {
  for (const client of clients) await client.$disconnect();
  await bouncer?.stop();
  await db?.drop();
});

const through = (options: { pooling: 'none' | 'transaction'; preparedStatements?: boolean }) => {
  const client = createPrisma({ url: bouncer.url, maxConnections: 5, ...options });
  clients.push(client);
  return client;
};

/** Ten reads at once, on up to five client connections, each naming its statement when prepared. */
const readsAtOnce = (client: PrismaClient) =>
  Promise.allSettled(Array.from({ length: 10 }, (_, i) => readRows<{ n: number }>(client, 'SELECT $1::int AS n', [i])));

describe('behind PgBouncer in transaction mode', () => {
  it('refuses the session settings a direct connection sends (the reason for DATABASE_POOLING=transaction)', async () => {
    await expect(readRows(through({ pooling: 'none' }), 'SELECT 1', [])).rejects.toThrow(
      /unsupported startup parameter/,
    );
  });

  it('loses named statements between server connections: prepared statements fail there', async () => {
    const results = await readsAtOnce(through({ pooling: 'transaction', preparedStatements: true }));
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.map((f) => (f.reason as { code?: string }).code)).toSatisfy((codes: unknown[]) =>
      codes.every((code) => code === '42P05' || code === '26000'),
    );
  });

  it('reads and writes in transactions with unnamed statements, in UTC from the pooler', async () => {
    const client = through({ pooling: 'transaction', preparedStatements: false });
    const results = await readsAtOnce(client);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value[0].n : r.reason))).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        inDirectTransaction(client, async (tx) => {
          await tx.$executeRawUnsafe('INSERT INTO accounts (id, name) VALUES ($1, $2)', `acct_pooled_${i}`, 'pooled');
          await tx.$queryRawUnsafe('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', `acct_pooled_${i}`);
        }),
      ),
    );
    expect(await client.account.count({ where: { name: 'pooled' } })).toBe(5);
    const [{ zone }] = await readRows<{ zone: string }>(client, `SELECT current_setting('TimeZone') AS zone`, []);
    expect(zone).toBe('UTC');
  });
});
