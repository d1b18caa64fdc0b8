import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_PEPPER, type TestDatabase } from '@platform/testkit';
import { runCli } from '../src/run.js';

let db: TestDatabase;
let dir: string;
let accountId: string;
beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'comparables-'));
  accountId = (await db.prisma.account.create({ data: { id: 'acct_comparables', name: 'Makler' } })).id;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await db.drop();
});

const NOW = new Date('2026-06-30T12:00:00Z');
const cli = async (line: string) => {
  const result = await runCli(line.split(' '), async () => ({
    db: db.prisma,
    environment: 'sandbox',
    pepper: TEST_PEPPER,
    storage: () => {
      throw new Error('no storage');
    },
    sandbox: () => {
      throw new Error('no sandbox');
    },
    now: () => NOW,
  }));
  return { ...result, json: () => JSON.parse(result.output) };
};
let files = 0;
async function csv(text: string): Promise<string> {
  const path = join(dir, `market-${++files}.csv`);
  await writeFile(path, text);
  return path;
}
const HEADER = 'type,marketing,postal_code,living_area_sqm,year_built,price_eur,date';
const count = () => db.prisma.marketTransaction.count({ where: { account_id: accountId } });

describe('comparables import', () => {
  it('imports every row into the account and says how many', async () => {
    const file = await csv(
      `${HEADER}\napartment,sale,10115,64.5,1998,420000,2026-01-15\nhouse,rent,80331,120,,2400,2025-07-01\n\n`,
    );
    const result = await cli(`comparables import --account ${accountId} ${file} --json`);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.json()).toEqual({ imported: 2, account_id: accountId, file });
    const rows = await db.prisma.marketTransaction.findMany({
      where: { account_id: accountId },
      orderBy: { price_eur: 'desc' },
    });
    expect(rows.map((r) => ({ ...r, date: r.date.toISOString().slice(0, 10) }))).toEqual([
      expect.objectContaining({
        type: 'apartment',
        marketing: 'sale',
        postal_code: '10115',
        living_area_sqm: 64.5,
        year_built: 1998,
        price_eur: 420000,
        date: '2026-01-15',
        source_ref: expect.stringMatching(/market-\d+\.csv:2$/),
      }),
      expect.objectContaining({
        type: 'house',
        marketing: 'rent',
        postal_code: '80331',
        living_area_sqm: 120,
        year_built: null,
        price_eur: 2400,
        date: '2025-07-01',
        source_ref: expect.stringMatching(/:3$/),
      }),
    ]);
    expect((await cli(`comparables import --account ${accountId} ${file}`)).output).toContain('imported: 2');
  });

  it('accepts the columns in any order', async () => {
    const before = await count();
    const file = await csv(
      'date,price_eur,year_built,living_area_sqm,postal_code,marketing,type\r\n2026-02-01,300000,2005,80,10117,sale,apartment\r\n',
    );
    expect((await cli(`comparables import --account ${accountId} ${file} --json`)).json().imported).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it('reports every bad row with its line number and reason, imports nothing and exits with 1', async () => {
    const before = await count();
    const file = await csv(
      [
        HEADER,
        'apartment,sale,10115,64.5,1998,420000,2026-01-15',
        'castle,sale,10115,64.5,1998,420000,2026-01-15',
        'apartment,lease,1011,0,1998,-5,2026-02-30',
        'apartment,sale,10115,64.5,1998,420000,2026-07-01',
        'apartment,sale,10115,64.5,1998',
        'apartment,rent,10115,64.5,year,1.5,2026-01-15',
      ].join('\n'),
    );
    const result = await cli(`comparables import --account ${accountId} ${file} --json`);
    expect(result.exitCode).toBe(1);
    const { imported, errors } = result.json();
    expect(imported).toBe(0);
    expect(errors.map((e: { line: number }) => e.line)).toEqual([3, 4, 5, 6, 7]);
    expect(errors[0].reason).toContain('type must be one of');
    expect(errors[1].reason.split('; ')).toHaveLength(5);
    expect(errors[1].reason).toContain('marketing must be sale or rent');
    expect(errors[1].reason).toContain('date must be a date');
    expect(errors[2].reason).toBe('date 2026-07-01 is in the future');
    expect(errors[3].reason).toBe('5 fields, the header has 7');
    expect(errors[4].reason).toContain('year_built');
    expect(errors[4].reason).toContain('price_eur');
    expect(await count()).toBe(before);
    // Without --json: one line per bad row.
    expect((await cli(`comparables import --account ${accountId} ${file}`)).output).toContain('"line":3');
  });

  it('refuses a file without the header (line 1)', async () => {
    const file = await csv('apartment,sale,10115,64.5,1998,420000,2026-01-15\n');
    const result = await cli(`comparables import --account ${accountId} ${file} --json`);
    expect(result.exitCode).toBe(1);
    expect(result.json().errors).toEqual([
      { line: 1, reason: expect.stringContaining('the header must name the columns') },
    ]);
  });

  it('needs an existing account (exit code 1) and a readable file (exit code 2)', async () => {
    const file = await csv(`${HEADER}\n`);
    expect(await cli(`comparables import ${file}`)).toMatchObject({
      exitCode: 2,
      output: 'Error: --account is required.',
    });
    expect(await cli(`comparables import --account acct_nobody ${file}`)).toMatchObject({
      exitCode: 1,
      output: 'Error: No account acct_nobody.',
    });
    expect((await cli(`comparables import --account ${accountId} ${join(dir, 'absent.csv')}`)).exitCode).toBe(2);
    expect((await cli(`comparables import --account ${accountId}`)).exitCode).toBe(2);
  });
});
