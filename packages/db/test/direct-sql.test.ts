import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, inDirectTransaction, inTransaction, isDatabaseUnavailable, readRows } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.account.create({ data: { id: 'acct_direct', name: 'direct' } });
});
afterAll(() => db.drop());

const nameOf = async (id: string) =>
  (await readRows<{ name: string }>(db.prisma, 'SELECT name FROM accounts WHERE id = $1', [id]))[0]?.name;

describe('inDirectTransaction', () => {
  it('commits all statements together, and rolls all back when the work throws', async () => {
    await inDirectTransaction(db.prisma, async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO accounts (id, name) VALUES ($1, $2)', 'acct_kept', 'kept');
    });
    await expect(
      inDirectTransaction(db.prisma, async (tx) => {
        await tx.$executeRawUnsafe('INSERT INTO accounts (id, name) VALUES ($1, $2)', 'acct_lost', 'lost');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect([await nameOf('acct_kept'), await nameOf('acct_lost')]).toEqual(['kept', undefined]);
  });

  it('inside a Prisma transaction, runs in that one: its rollback takes the direct statements with it', async () => {
    await expect(
      inTransaction(db.prisma, async (outer) => {
        await inDirectTransaction(outer, async (tx) =>
          tx.$executeRawUnsafe('INSERT INTO accounts (id, name) VALUES ($1, $2)', 'acct_nested', 'nested'),
        );
        expect(await outer.account.count({ where: { id: 'acct_nested' } })).toBe(1);
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await nameOf('acct_nested')).toBeUndefined();
  });

  it('returns the connection to the pool after a failed statement (the pool is not drained)', async () => {
    for (let i = 0; i < 15; i++) {
      await expect(
        inDirectTransaction(db.prisma, async (tx) => tx.$queryRawUnsafe('SELECT no_such_column FROM accounts')),
      ).rejects.toThrow(/no_such_column/);
    }
    expect(await nameOf('acct_direct')).toBe('direct');
  });
});

describe('a connection the server drops', () => {
  it('in a direct transaction: the request fails as unavailable, the process lives on, the pool serves the next one', async () => {
    // Without a listener of its own, the dropped connection's 'error' event would be uncaught (the run fails).
    const error = await inDirectTransaction(db.prisma, async (tx) => {
      await tx.$queryRawUnsafe('SELECT pg_terminate_backend(pg_backend_pid())');
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50)); // an 'error' event would come now
    expect(await nameOf('acct_direct')).toBe('direct');
  });

  it("errors of pg itself count as unavailable (503), as Prisma's codes do", () => {
    const withCode = (code: string, message = '') => Object.assign(new Error(message), { code });
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', '57P01', '08006'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], ''))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(withCode('23505', 'duplicate key'))).toBe(false);
    expect(
      isDatabaseUnavailable(withCode('08P01', 'bind message supplies 1 parameters, but prepared statement requires 2')),
    ).toBe(false);
    expect(isDatabaseUnavailable(withCode('42703', 'column does not exist'))).toBe(false);
  });
});

describe('the session time zone', () => {
  it('is UTC even when the URL sets options of its own', async () => {
    const url = new URL(db.url);
    url.searchParams.set('options', '-c search_path=public');
    const client = createPrisma({ url: url.toString(), maxConnections: 1 });
    try {
      const [row] = await readRows<{ zone: string; path: string }>(
        client,
        "SELECT current_setting('TimeZone') AS zone, current_setting('search_path') AS path",
        [],
      );
      expect(row).toEqual({ zone: 'UTC', path: 'public' });
    } finally {
      await client.$disconnect();
    }
  });
});

describe('readRows', () => {
  it('reads dates as UTC days and timestamps as instants, as Prisma does', async () => {
    const [row] = await readRows<{ day: Date; at: Date; big: bigint }>(
      db.prisma,
      "SELECT DATE '2026-03-01' AS day, TIMESTAMPTZ '2026-03-01 12:00:00+00' AS at, 9007199254740993::bigint AS big",
      [],
    );
    expect(row.day).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(row.at).toEqual(new Date('2026-03-01T12:00:00Z'));
    expect(row.big).toBe(9007199254740993n);
  });

  it('a migration that changes a table under a running process: the prepared SELECT * is prepared again', async () => {
    await db.prisma.$executeRawUnsafe('CREATE TABLE direct_probe (id text PRIMARY KEY)');
    await db.prisma.$executeRawUnsafe("INSERT INTO direct_probe VALUES ('a')");
    const read = () => readRows<Record<string, unknown>>(db.prisma, 'SELECT * FROM direct_probe WHERE id = $1', ['a']);
    // Prepared on every connection of the pool, so that the next read certainly meets a stale plan.
    await Promise.all(Array.from({ length: 10 }, read));
    await db.prisma.$executeRawUnsafe('ALTER TABLE direct_probe ADD COLUMN note text');
    expect(await read()).toEqual([{ id: 'a', note: null }]);
  });
});
