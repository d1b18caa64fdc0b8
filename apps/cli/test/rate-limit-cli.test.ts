import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliContext } from './cli-context.js';
import { newId } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';
import { runCli } from '../src/run.js';

let db: TestDatabase;
let appId: string;
beforeAll(async () => {
  db = await createTestDatabase();
  const accountId = newId('acct');
  await db.prisma.account.create({ data: { id: accountId, name: 'Agency' } });
  appId = newId('app');
  await db.prisma.application.create({
    data: { id: appId, account_id: accountId, service: 'property', name: 'website' },
  });
});
afterAll(async () => {
  await db.drop();
});

const DEPLOYMENT_DEFAULT = 300;
const cli = async (line: string) => {
  const result = await runCli(line.split(' '), async () => cliContext(db, { rateLimitPerMinute: DEPLOYMENT_DEFAULT }));
  return { ...result, json: () => JSON.parse(result.output) };
};
const stored = async () =>
  (await db.prisma.application.findUniqueOrThrow({ where: { id: appId } })).rate_limit_per_minute;

describe('app set-rate-limit', () => {
  it("gives the application its own budget and returns it to the deployment's default", async () => {
    const set = await cli(`app set-rate-limit --app ${appId} --per-minute 1200 --json`);
    expect(set.exitCode).toBe(0);
    expect(set.json()).toEqual({ id: appId, name: 'website', rate_limit_per_minute: 1200, effective_per_minute: 1200 });
    expect(await stored()).toBe(1200);

    const reset = await cli(`app set-rate-limit --app ${appId} --default --json`);
    expect(reset.exitCode).toBe(0);
    expect(reset.json()).toEqual({
      id: appId,
      name: 'website',
      rate_limit_per_minute: null,
      effective_per_minute: DEPLOYMENT_DEFAULT,
    });
    expect(await stored()).toBeNull();

    const bounds = [
      await cli(`app set-rate-limit --app ${appId} --per-minute 1`),
      await cli(`app set-rate-limit --app ${appId} --per-minute 1000000`),
    ];
    expect(bounds.map((r) => r.exitCode)).toEqual([0, 0]);
    expect(bounds[1].output).toContain('effective_per_minute: 1000000');
    expect(await stored()).toBe(1_000_000);
  });

  it('refuses bad input with exit code 2 (an unknown application: 1) and a clear message, changing nothing', async () => {
    await cli(`app set-rate-limit --app ${appId} --per-minute 50`);
    const cases: [string, string][] = [
      [`app set-rate-limit --app ${appId}`, 'Give exactly one of --per-minute <n> and --default.'],
      [
        `app set-rate-limit --app ${appId} --per-minute 10 --default`,
        'Give exactly one of --per-minute <n> and --default.',
      ],
      ['app set-rate-limit --per-minute 10', '--app is required.'],
      ['app set-rate-limit --app app_missing --per-minute 10', 'No application app_missing.'],
      ['app set-rate-limit --app app_missing --default', 'No application app_missing.'],
    ];
    for (const value of ['0', '1000001', '1.5', 'ten', '-5', '1e3', '', '00000000001']) {
      cases.push([
        `app set-rate-limit --app ${appId} --per-minute=${value}`,
        `--per-minute must be a whole number from 1 to 1,000,000 (got "${value}").`,
      ]);
    }
    for (const [line, message] of cases) {
      const result = await cli(`${line} --json`);
      expect(result.exitCode, line).toBe(message.startsWith('No application') ? 1 : 2);
      expect(result.json(), line).toEqual({ error: message });
    }
    expect(await stored()).toBe(50);
  });
});
