import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStorage } from '@platform/storage';
import { cliContext } from './cli-context.js';
import { newId } from '@platform/db';
import { createTestDatabase, startSmtpSink, type SmtpSink, type TestDatabase } from '@platform/testkit';
import { runCli } from '../src/run.js';

let db: TestDatabase;
let sink: SmtpSink;
let appId: string;
beforeAll(async () => {
  db = await createTestDatabase();
  sink = await startSmtpSink();
  const accountId = newId('acct');
  await db.prisma.account.create({ data: { id: accountId, name: 'Agency' } });
  appId = newId('app');
  await db.prisma.application.create({
    data: { id: appId, account_id: accountId, service: 'property', name: 'website', owner_email: 'dev@agency.example' },
  });
});
afterAll(async () => {
  await sink?.close();
  await db?.drop();
});

const NOW = new Date('2026-11-27T12:00:00.000Z');
const cli = async (line: string, smtpUrl?: string) => {
  const result = await runCli(line.split(' '), async () =>
    cliContext(db, {
      now: () => NOW,
      smtp: { url: smtpUrl, from: 'api@platform.example' },
      storage: () => ({}) as BlobStorage, // `jobs run` builds a job's context with it (unused by this job)
    }),
  );
  return { ...result, json: () => JSON.parse(result.output) };
};

describe('key roll and key age in the CLI', () => {
  it('key roll gives a successor with the same scopes and the old key an expiry; key list shows age and expiry', async () => {
    const created = (await cli(`key create --app ${appId} --scopes properties:read,properties:write --json`)).json();
    await db.prisma.apiKey.update({
      where: { id: created.id },
      data: { created_at: new Date(NOW.getTime() - 100 * 86_400_000) },
    });
    const rolled = await cli(`key roll ${created.id} --expires-in 24 --json`);
    expect(rolled.exitCode).toBe(0);
    expect(rolled.json()).toMatchObject({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^pm_test_/),
      scopes: ['properties:read', 'properties:write'],
      age_days: 0,
      previous_id: created.id,
      previous_expires_at: '2026-11-28T12:00:00.000Z',
    });

    const listed = await cli(`key list --app ${appId} --json`);
    expect(listed.json().keys).toEqual([
      expect.objectContaining({ id: rolled.json().id, age_days: 0, expires_at: null }),
      expect.objectContaining({
        id: created.id,
        age_days: 100,
        created_at: '2026-08-19T12:00:00.000Z',
        expires_at: '2026-11-28T12:00:00.000Z',
        rolled_into: rolled.json().id,
      }),
    ]);
    // Text mode: an aligned table, a row per key, the old one's age, expiry and successor.
    const text = (await cli(`key list --app ${appId}`)).output.split('\n');
    expect(text[0]).toBe(`Keys of ${appId}`);
    expect(text[1].split(/ {2,}/)).toEqual([
      'ID',
      'PREFIX',
      'SCOPES',
      'CREATED',
      'AGE (DAYS)',
      'LAST USED',
      'EXPIRES',
      'REVOKED',
      'STATE',
    ]);
    expect(text[3].split(/ {2,}/)).toEqual([
      created.id,
      `${created.display_prefix}…`,
      'properties:read,properties:write',
      '2026-08-19 12:00 UTC',
      '100',
      '-',
      '2026-11-28 12:00 UTC',
      '-',
      `rolled into ${rolled.json().id}, expiring`,
    ]);
    expect(text[2].indexOf(rolled.json().id)).toBe(0);
    expect(text[1].indexOf('STATE')).toBe(text[3].indexOf('rolled into'));
    expect(text.join('\n')).not.toContain(rolled.json().key);
  });

  it('refuses a missing or out-of-range --expires-in naming the limit, and a revoked key', async () => {
    const created = (await cli(`key create --app ${appId} --scopes properties:read --json`)).json();
    const missing = await cli(`key roll ${created.id}`);
    expect(missing).toMatchObject({ exitCode: 2, output: expect.stringMatching(/--expires-in is required.*168/) });
    for (const bad of ['169', '-1', '1.5', 'soon']) {
      const refused = await cli(`key roll ${created.id} --expires-in=${bad}`);
      expect(refused.exitCode, bad).toBe(2);
      expect(refused.output, bad).toMatch(/from 0 to 168 \(7 days\)/);
    }
    expect(await cli(`key roll key_missing --expires-in 1`)).toMatchObject({
      exitCode: 1,
      output: 'Error: No API key key_missing.',
    });
    await cli(`key revoke ${created.id}`);
    const revoked = await cli(`key roll ${created.id} --expires-in 0`);
    expect(revoked).toMatchObject({ exitCode: 2, output: expect.stringMatching(/was revoked at .*create a new key/) });
  });

  it('jobs run notify-old-api-keys mails the owner through SMTP_URL, and only counts without it', async () => {
    const created = (await cli(`key create --app ${appId} --scopes properties:read --json`)).json();
    await db.prisma.apiKey.updateMany({ data: { age_notice_sent_at: NOW } });
    await db.prisma.apiKey.update({
      where: { id: created.id },
      data: { created_at: new Date(NOW.getTime() - 90 * 86_400_000), age_notice_sent_at: null },
    });
    const unset = await cli('jobs run notify-old-api-keys --json');
    expect(unset.json()).toMatchObject({ job: 'notify-old-api-keys', due: 1, sent: 0 });
    const sent = await cli('jobs run notify-old-api-keys --json', sink.url());
    expect(sent.json()).toMatchObject({ due: 1, sent: 1 });
    expect(sink.messages.at(-1)).toMatchObject({
      to: ['dev@agency.example'],
      text: expect.stringContaining(created.id),
    });
  });
});
