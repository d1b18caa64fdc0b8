import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPrisma, inDirectTransaction, readRows } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';

// pg's own Result: its addFields builds a row shape per query, which direct-sql reuses per statement shape.
const { prototype: stockResult } = createRequire(import.meta.url)('pg/lib/result.js') as {
  prototype: { addFields(fields: unknown[]): void };
};

let db: TestDatabase;
const COLUMNS = Array.from({ length: 40 }, (_, i) => `c${i} text`).join(', ');
beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.$executeRawUnsafe(
    `CREATE TABLE wide (id text PRIMARY KEY, n bigint, at timestamp(3), day date, ok boolean, doc jsonb, ${COLUMNS})`,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO wide (id, n, at, day, ok, doc, c0, c39) VALUES
       ('a', 9007199254740993, '2026-11-27 10:11:12.345', '2026-11-27', true, '{"k":[1]}', 'first', 'last'),
       ('b', NULL, NULL, NULL, false, NULL, NULL, NULL)`,
  );
});
afterAll(() => db.drop());

const readWide = (id: string) =>
  readRows<Record<string, unknown>>(db.prisma, 'SELECT * FROM wide WHERE id = $1', [id]).then((rows) => rows[0]!);

describe('rows read with their shape reused', () => {
  it('are the same on the first and every later execution, with every column and Prisma’s types', async () => {
    const first = await readWide('a');
    expect(Object.keys(first)).toHaveLength(46);
    expect(first).toMatchObject({
      id: 'a',
      n: 9007199254740993n,
      at: new Date('2026-11-27T10:11:12.345Z'),
      day: new Date('2026-11-27T00:00:00Z'),
      ok: true,
      doc: { k: [1] },
      c0: 'first',
      c1: null,
      c39: 'last',
    });
    for (let i = 0; i < 3; i++) expect(await readWide('a')).toEqual(first);
    const empty = await readWide('b');
    expect(empty).toMatchObject({ n: null, at: null, day: null, ok: false, doc: null, c0: null, c39: null });
    expect(Object.keys(empty)).toEqual(Object.keys(first));
  });

  it('build the shape once: later executions of the same shape skip pg’s addFields', async () => {
    await readWide('a');
    const addFields = vi.spyOn(stockResult, 'addFields');
    try {
      for (let i = 0; i < 5; i++) await readWide(i % 2 ? 'a' : 'b');
      await inDirectTransaction(db.prisma, async (tx) => tx.$queryRawUnsafe('SELECT * FROM wide WHERE id = $1', 'a'));
      expect(addFields).not.toHaveBeenCalled();
    } finally {
      addFields.mockRestore();
    }
  });

  it('are separate objects: changing one row changes no later one', async () => {
    const row = await readWide('a');
    row.c1 = 'changed';
    (row as { extra?: number }).extra = 1;
    const again = await readWide('a');
    expect(again.c1).toBeNull();
    expect(again).not.toHaveProperty('extra');
  });

  it('keep statements apart whose columns have the same names but other types', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await readRows(db.prisma, 'SELECT $1::int AS v', [7])).toEqual([{ v: 7 }]);
      expect(await readRows(db.prisma, 'SELECT $1::text AS v', ['7'])).toEqual([{ v: '7' }]);
      expect(await readRows(db.prisma, 'SELECT $1::int AS w', [7])).toEqual([{ w: 7 }]);
    }
  });

  it('follow a column whose type a migration changed under the running process', async () => {
    await db.prisma.$executeRawUnsafe('CREATE TABLE shifting (id text PRIMARY KEY, v int)');
    await db.prisma.$executeRawUnsafe(`INSERT INTO shifting VALUES ('x', 5)`);
    const read = () => readRows(db.prisma, 'SELECT * FROM shifting', []);
    expect(await read()).toEqual([{ id: 'x', v: 5 }]);
    await db.prisma.$executeRawUnsafe('ALTER TABLE shifting ALTER COLUMN v TYPE text');
    expect(await read()).toEqual([{ id: 'x', v: '5' }]);
  });

  it('unnamed (behind a transaction pooler): a statement whose columns a migration changed gets the new shape', async () => {
    const unnamed = createPrisma({ url: db.url, preparedStatements: false });
    try {
      await unnamed.$executeRawUnsafe('CREATE TABLE growing (id text PRIMARY KEY, v int)');
      await unnamed.$executeRawUnsafe(`INSERT INTO growing VALUES ('x', 5)`);
      const read = () => readRows(unnamed, 'SELECT * FROM growing', []);
      expect(await read()).toEqual([{ id: 'x', v: 5 }]);
      await unnamed.$executeRawUnsafe(`ALTER TABLE growing ADD COLUMN w text DEFAULT 'new', ALTER COLUMN v TYPE text`);
      expect(await read()).toEqual([{ id: 'x', v: '5', w: 'new' }]);
    } finally {
      await unnamed.$disconnect();
    }
  });

  it('in a direct transaction: errors still reject, and the transaction rolls back', async () => {
    await expect(
      inDirectTransaction(db.prisma, async (tx) => {
        await tx.$executeRawUnsafe(`UPDATE wide SET c2 = 'in tx' WHERE id = 'a'`);
        await tx.$queryRawUnsafe('SELECT no_such_column FROM wide');
      }),
    ).rejects.toThrow(/no_such_column/);
    expect((await readWide('a')).c2).toBeNull();
  });
});
