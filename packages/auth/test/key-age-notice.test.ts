import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsOf } from '@platform/runtime';
import {
  TEST_SERVICES,
  addKey,
  createTenant,
  createTestDatabase,
  startSmtpSink,
  type SmtpSink,
  type TestDatabase,
  whileHeld,
} from '@platform/testkit';
import { sendKeyAgeNotices } from '../src/key-age-notice.js';

const DAY = 86_400_000;
const service = TEST_SERVICES[0];
let db: TestDatabase;
let sink: SmtpSink;
beforeAll(async () => {
  db = await createTestDatabase();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
  await db?.drop();
});

/** A fresh database state: every key of earlier tests is marked as announced. */
const quiet = () => db.prisma.apiKey.updateMany({ data: { age_notice_sent_at: new Date() } });
const aged = (id: string, days: number, now: Date) =>
  db.prisma.apiKey.update({ where: { id }, data: { created_at: new Date(now.getTime() - days * DAY) } });
const ownedTenant = async (email: string | null) => {
  const tenant = await createTenant(db.prisma, { service });
  await db.prisma.application.update({ where: { id: tenant.applicationId }, data: { owner_email: email } });
  return tenant;
};

describe('the 90-day notice to the owner of an API key', () => {
  it('mails the owner once per active key of 90 days; younger, revoked, expired and rolled keys are not announced', async () => {
    await quiet();
    const now = new Date();
    const smtp = { url: sink.url(), from: 'api@platform.example' };
    const tenant = await ownedTenant('owner@example.com');
    const old = await addKey(db.prisma, tenant, { service, scopes: ['things:read'] });
    const young = await addKey(db.prisma, tenant, { service, scopes: ['things:read'] });
    const revoked = await addKey(db.prisma, tenant, { service, scopes: ['things:read'] });
    const expired = await addKey(db.prisma, tenant, { service, scopes: ['things:read'] });
    const rolled = await addKey(db.prisma, tenant, { service, scopes: ['things:read'] });
    for (const key of [tenant.keyId, old.id, revoked.id, expired.id, rolled.id]) await aged(key, 90, now);
    await aged(young.id, 89.9, now);
    await db.prisma.apiKey.update({ where: { id: revoked.id }, data: { revoked_at: now } });
    await db.prisma.apiKey.update({ where: { id: expired.id }, data: { expires_at: now } });
    await db.prisma.apiKey.update({ where: { id: rolled.id }, data: { rolled_into_id: young.id } });
    const before = sink.messages.length;

    const report = await sendKeyAgeNotices(db.prisma, { now, smtp });
    expect(report).toEqual({
      due: 2,
      sent: 2,
      failed: 0,
      without_owner: 0,
      delivery: expect.stringMatching(/^smtp smtp:\/\/[^@]+$/),
    });
    const mails = sink.messages.slice(before);
    expect(mails.map((m) => m.to)).toEqual([['owner@example.com'], ['owner@example.com']]);
    const announced = [tenant.keyId, old.id];
    for (const id of announced) expect(mails.some((m) => m.text.includes(id))).toBe(true);
    expect(mails[0].text).toContain('90 days old');
    expect(mails[0].text).toMatch(/POST \/v1\/api-keys\/key_\w+\/roll/);
    expect(mails[0].text).toContain('"expires_in_hours": 0');
    const rows = await db.prisma.apiKey.findMany({
      where: { application_id: tenant.applicationId, age_notice_sent_at: { not: null } },
    });
    expect(rows.map((r) => r.id).sort()).toEqual([...announced].sort());

    // Once per key: the next night announces only the key that has turned 90 since.
    expect(await sendKeyAgeNotices(db.prisma, { now: new Date(now.getTime() + DAY), smtp })).toMatchObject({
      due: 1,
      sent: 1,
    });
    expect(sink.messages.length).toBe(before + 3);
    expect(sink.messages.at(-1)?.text).toContain(young.id);
  });

  it('without SMTP_URL nothing is sent or recorded; the notice goes out once SMTP is set', async () => {
    await quiet();
    const now = new Date();
    const tenant = await ownedTenant('later@example.com');
    await aged(tenant.keyId, 120, now);
    const before = sink.messages.length;
    expect(await sendKeyAgeNotices(db.prisma, { now })).toEqual({
      due: 1,
      sent: 0,
      failed: 0,
      without_owner: 0,
      delivery: 'none (SMTP_URL is not set)',
    });
    expect((await db.prisma.apiKey.findUniqueOrThrow({ where: { id: tenant.keyId } })).age_notice_sent_at).toBeNull();
    expect(sink.messages.length).toBe(before);
    const smtp = { url: sink.url(), from: 'api@platform.example' };
    expect(await sendKeyAgeNotices(db.prisma, { now, smtp })).toMatchObject({ due: 1, sent: 1 });
    expect(sink.messages.at(-1)?.to).toEqual(['later@example.com']);
  });

  it('a failed mail is not recorded and is sent on the next run; an application without owner is counted, not mailed', async () => {
    await quiet();
    const now = new Date();
    const tenant = await ownedTenant('retry@example.com');
    const orphan = await ownedTenant(null);
    await aged(tenant.keyId, 95, now);
    await aged(orphan.keyId, 95, now);
    const unreachable = { url: 'smtp://127.0.0.1:1', from: 'api@platform.example' };
    expect(await sendKeyAgeNotices(db.prisma, { now, smtp: unreachable })).toMatchObject({
      due: 2,
      sent: 0,
      failed: 1,
      without_owner: 1,
    });
    expect((await db.prisma.apiKey.findUniqueOrThrow({ where: { id: tenant.keyId } })).age_notice_sent_at).toBeNull();
    const smtp = { url: sink.url(), from: 'api@platform.example' };
    expect(await sendKeyAgeNotices(db.prisma, { now, smtp })).toMatchObject({ sent: 1, without_owner: 1 });
  });

  it('two runs at once send the notice once: both see the key due, only one claims it', async () => {
    await quiet();
    const now = new Date();
    const smtp = { url: sink.url(), from: 'api@platform.example' };
    const tenant = await ownedTenant('race@example.com');
    await aged(tenant.keyId, 91, now);
    const before = sink.messages.length;
    // The key row locked while both runs start: both read it as due, then queue on their claims.
    const { result, waited } = await whileHeld(
      db,
      (tx) => tx.$queryRaw`SELECT id FROM api_keys WHERE id = ${tenant.keyId} FOR UPDATE`,
      () => Promise.all([sendKeyAgeNotices(db.prisma, { now, smtp }), sendKeyAgeNotices(db.prisma, { now, smtp })]),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => r.due)).toEqual([1, 1]);
    expect(result.map((r) => r.sent).sort()).toEqual([0, 1]);
    expect(sink.messages.slice(before).map((m) => m.to)).toEqual([['race@example.com']]);
  });

  it('runs daily as the deployment job notify-old-api-keys', () => {
    const job = jobsOf([]).find((j) => j.name === 'notify-old-api-keys');
    expect(job?.schedule).toEqual({ pattern: '0 9 * * *', tz: 'Europe/Berlin' });
  });
});
