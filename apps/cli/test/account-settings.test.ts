import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_PEPPER, type TestDatabase } from '@platform/testkit';
import { runCli } from '../src/run.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const cli = async (line: string) => {
  const result = await runCli(
    line.split(' '),
    async () => ({ db: db.prisma, environment: 'sandbox', pepper: TEST_PEPPER }) as never,
  );
  return { ...result, json: () => JSON.parse(result.output) };
};

describe('account set-default-country', () => {
  it('sets the country of new properties whose address names none, and says the previous one', async () => {
    const account = (await cli('account create --name Berliner-Makler --json')).json() as { id: string };
    expect((await db.prisma.account.findUniqueOrThrow({ where: { id: account.id } })).default_country).toBe('US');
    const set = await cli(`account set-default-country --account ${account.id} --country de --json`);
    expect(set.exitCode).toBe(0);
    expect(set.json()).toEqual({ id: account.id, default_country: 'DE', previous_default_country: 'US' });
    expect((await db.prisma.account.findUniqueOrThrow({ where: { id: account.id } })).default_country).toBe('DE');
  });

  it('refuses a country that is not two letters (exit code 2) and an unknown account (exit code 1)', async () => {
    const account = (await cli('account create --name Other --json')).json() as { id: string };
    for (const line of [
      `account set-default-country --account ${account.id} --country Deutschland`,
      `account set-default-country --account ${account.id}`,
      'account set-default-country --account acct_missing --country DE',
      'account set-default-country --country DE',
    ]) {
      const result = await cli(line);
      expect(result.exitCode, line).toBe(line.includes('acct_missing') ? 1 : 2);
      expect(result.output, line).toMatch(/^Error: /);
    }
    expect((await db.prisma.account.findUniqueOrThrow({ where: { id: account.id } })).default_country).toBe('US');
  });
});
