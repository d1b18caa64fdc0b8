import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';
import {
  accountDefaultCountry,
  accountExists,
  accountName,
  accountNames,
  accountTimeZone,
  accountZones,
  findAccountTimeZone,
  insertAccount,
  setAccountDefaultCountry,
  setAccountTimeZone,
} from '../src/index.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

it('stores an account with the database defaults and reads and changes its settings', async () => {
  const { id } = await insertAccount(db.prisma, { name: 'Makler GmbH' });
  expect(await accountExists(db.prisma, id)).toBe(true);
  expect(await accountName(db.prisma, id)).toBe('Makler GmbH');
  expect(await accountTimeZone(db.prisma, id)).toBe('Europe/Berlin');
  expect(await accountDefaultCountry(db.prisma, id)).toBe('US');
  await setAccountTimeZone(db.prisma, id, 'America/New_York');
  await setAccountDefaultCountry(db.prisma, id, 'DE');
  expect(await findAccountTimeZone(db.prisma, id)).toEqual({ id, time_zone: 'America/New_York' });
  expect(await accountDefaultCountry(db.prisma, id)).toBe('DE');
});

it('answers for an account that does not exist without throwing (except the time zone, which needs one)', async () => {
  expect(await accountExists(db.prisma, 'acct_missing')).toBe(false);
  expect(await accountName(db.prisma, 'acct_missing')).toBeUndefined();
  expect(await accountDefaultCountry(db.prisma, 'acct_missing')).toBeNull();
  expect(await findAccountTimeZone(db.prisma, 'acct_missing')).toBeNull();
  await expect(accountTimeZone(db.prisma, 'acct_missing')).rejects.toThrow();
});

it('names many accounts in one query, and hands out its rows as a SQL fragment to join', async () => {
  const a = await insertAccount(db.prisma, { name: 'A', id: 'acct_frag_a', time_zone: 'Europe/Vienna' });
  const b = await insertAccount(db.prisma, { name: 'B', id: 'acct_frag_b' });
  expect(await accountNames(db.prisma, [a.id, b.id, 'acct_missing'])).toEqual(
    new Map([
      [a.id, 'A'],
      [b.id, 'B'],
    ]),
  );
  const rows = await db.prisma.$queryRaw<{ id: string; time_zone: string }[]>`
    SELECT z.id, z.time_zone FROM (${accountZones()}) z WHERE z.id IN (${a.id}, ${b.id}) ORDER BY z.id`;
  expect(rows).toEqual([
    { id: 'acct_frag_a', time_zone: 'Europe/Vienna' },
    { id: 'acct_frag_b', time_zone: 'Europe/Berlin' },
  ]);
});
