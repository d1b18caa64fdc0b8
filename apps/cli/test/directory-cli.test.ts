// `account list`, `app list --account`, `app show`: what an operator finds things with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliContext } from './cli-context.js';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';
import { runCli } from '../src/run.js';

let db: TestDatabase;
const NOW = new Date('2026-11-27T12:00:00.000Z');
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const cli = async (line: string) => {
  const result = await runCli(line.split(' '), async () => cliContext(db, { now: () => NOW, rateLimitPerMinute: 600 }));
  return { ...result, json: () => JSON.parse(result.output), rows: () => result.output.split('\n') };
};
const cells = (line: string) => line.split(/ {2,}/);

describe('account list, app list, app show', () => {
  let accountId: string;
  let websiteId: string;
  let botId: string;
  const secrets: string[] = [];
  beforeAll(async () => {
    accountId = (await cli('account create --name Agency --json')).json().id;
    await cli('account create --name Empty --time-zone Europe/Vienna');
    websiteId = (
      await cli(
        `app create --account ${accountId} --service property --name website --owner-email dev@agency.example --json`,
      )
    ).json().id;
    botId = (await cli(`app create --account ${accountId} --service agent_platform --name bot --json`)).json().id;
    await cli(`app set-rate-limit --app ${botId} --per-minute 1200`);
    for (let i = 0; i < 2; i++)
      secrets.push((await cli(`key create --app ${websiteId} --scopes properties:read --json`)).json().key);
    const revoked = (await cli(`key create --app ${websiteId} --scopes properties:write --json`)).json();
    secrets.push(revoked.key);
    await cli(`key revoke ${revoked.id}`);
  });

  it('account list: every account with its time zone, number of applications and creation, as a table and as JSON', async () => {
    const listed = await cli('account list --json');
    expect(listed.exitCode).toBe(0);
    expect(listed.json().environment).toBe('sandbox');
    expect(listed.json().accounts).toEqual(
      expect.arrayContaining([
        { id: accountId, name: 'Agency', time_zone: 'Europe/Berlin', created_at: expect.any(String), applications: 2 },
        {
          id: expect.stringMatching(/^acct_/),
          name: 'Empty',
          time_zone: 'Europe/Vienna',
          created_at: expect.any(String),
          applications: 0,
        },
      ]),
    );
    const text = await cli('account list');
    expect(text.rows()[0]).toMatch(/^Accounts \(\d+, environment sandbox\)$/);
    expect(cells(text.rows()[1])).toEqual(['ID', 'NAME', 'TIME ZONE', 'APPS', 'CREATED']);
    const agency = listed.json().accounts.find((a: { id: string }) => a.id === accountId);
    const created = `${agency.created_at.slice(0, 10)} ${agency.created_at.slice(11, 16)} UTC`;
    expect(text.rows().map(cells)).toContainEqual([accountId, 'Agency', 'Europe/Berlin', '2', created]);
    // Aligned: each column starts where its header does.
    const row = text.rows().find((line) => line.startsWith(accountId))!;
    expect(row.indexOf('Europe/Berlin')).toBe(text.rows()[1].indexOf('TIME ZONE'));
  });

  it('app list --account: owner, budget and keys (all and active) of each application', async () => {
    const listed = await cli(`app list --account ${accountId} --json`);
    expect(listed.exitCode).toBe(0);
    expect(listed.json()).toEqual({
      account_id: accountId,
      applications: [
        expect.objectContaining({
          id: websiteId,
          name: 'website',
          service: 'property',
          owner_email: 'dev@agency.example',
          rate_limit_per_minute: null,
          effective_per_minute: 600,
          keys: 3,
          active_keys: 2,
        }),
        expect.objectContaining({ id: botId, owner_email: null, rate_limit_per_minute: 1200, keys: 0, active_keys: 0 }),
      ],
    });
    const rows = (await cli(`app list --account ${accountId}`)).rows().map(cells);
    expect(rows[1]).toEqual(['ID', 'NAME', 'SERVICE', 'OWNER', 'BUDGET', 'KEYS (ACTIVE)', 'CREATED']);
    expect(rows[2].slice(0, 6)).toEqual([
      websiteId,
      'website',
      'property',
      'dev@agency.example',
      '600/min (default)',
      '3 (2)',
    ]);
    expect(rows[3].slice(0, 6)).toEqual([botId, 'bot', 'agent_platform', '-', '1200/min', '0 (0)']);
  });

  it('app show: budget, owner and every key by id and prefix, never a secret', async () => {
    const shown = await cli(`app show ${websiteId} --json`);
    expect(shown.exitCode).toBe(0);
    expect(shown.json()).toMatchObject({
      id: websiteId,
      account_id: accountId,
      account_name: 'Agency',
      owner_email: 'dev@agency.example',
      effective_per_minute: 600,
    });
    expect(shown.json().keys).toHaveLength(3);
    const text = await cli(`app show ${websiteId}`);
    expect(text.output).toContain(`Account      ${accountId} (Agency)`);
    expect(text.output).toContain('Budget       600/min (default), RATE_LIMIT_PER_MINUTE');
    expect(text.output).toContain('Keys (3, 2 active)');
    expect(text.rows().filter((line) => /^key_\S+ +pm_test_\S{4}… /.test(line))).toHaveLength(3);
    expect(text.rows().filter((line) => line.endsWith('  revoked'))).toHaveLength(1);
    for (const secret of secrets) {
      expect(shown.output).not.toContain(secret.slice(0, 13));
      expect(text.output).not.toContain(secret.slice(0, 13));
    }
  });

  it('an unknown id is one clear line and exit code 1; a missing one a usage error (2)', async () => {
    expect(await cli('app show app_nope')).toMatchObject({ exitCode: 1, output: 'Error: No application app_nope.' });
    expect(await cli('app list --account acct_nope --json')).toMatchObject({
      exitCode: 1,
      output: JSON.stringify({ error: 'No account acct_nope.' }),
    });
    expect(await cli('app show')).toMatchObject({
      exitCode: 2,
      output: 'Error: Name the application: app show <appId>.',
    });
    expect((await cli('app list')).exitCode).toBe(2);
  });
});
