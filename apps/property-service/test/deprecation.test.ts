import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTenant, startTestApp, until, type Tenant } from '@platform/testkit';
import type { ApiDeprecation } from '@platform/service';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';
import type { PropertyTestContext } from './helpers.js';

const SUNSET = new Date('2027-06-30T00:00:00Z');
const deprecated = (version: string): ApiDeprecation => ({
  version,
  sunset: SUNSET,
  successor: `https://api.example.test/${version}-next/docs`,
});
// Not about overload: a busy test machine must not turn answers into 503s.
const startWith = (deprecations: ApiDeprecation[]) =>
  startTestApp(propertyDescriptor, (deps) => buildPropertyApp({ ...deps, deprecations, maxEventLoopDelayMs: 60_000 }));

let v1Sunset: PropertyTestContext;
let leadsSunset: PropertyTestContext;
beforeAll(async () => {
  [v1Sunset, leadsSunset] = await Promise.all([startWith([deprecated('v1')]), startWith([deprecated('leads/v1')])]);
});
afterAll(() => Promise.all([v1Sunset?.close(), leadsSunset?.close()]));

const expectDeprecated = (res: LightMyRequestResponse, version: string) =>
  expect(res.headers).toMatchObject({
    deprecation: 'true',
    sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
    link: `<https://api.example.test/${version}-next/docs>; rel="successor-version"`,
  });
const expectNotDeprecated = (res: LightMyRequestResponse) => {
  expect(res.headers.deprecation).toBeUndefined();
  expect(res.headers.sunset).toBeUndefined();
  expect(res.headers.link).toBeUndefined();
};
const withoutKey = (ctx: PropertyTestContext, url: string) => ctx.app.inject({ method: 'GET', url });

describe('deprecation headers', () => {
  it('are on every answer of the deprecated version: 200, 404, 422, 401 without and with a bad key, 403', async () => {
    const ctx = v1Sunset;
    const answers = {
      ok: await ctx.send('GET', '/v1/properties'),
      missing: await ctx.send('GET', '/v1/properties/prop_missing'),
      invalid: await ctx.send('POST', '/v1/properties', { title: '' }),
      noKey: await withoutKey(ctx, '/v1/properties'),
      badKey: await ctx.send('GET', '/v1/properties', undefined, 'pm_sandbox_not-a-key'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, res.statusCode]))).toEqual({
      ok: 200,
      missing: 404,
      invalid: 422,
      noKey: 401,
      badKey: 401,
    });
    for (const res of Object.values(answers)) expectDeprecated(res, 'v1');

    const readOnly = await createTenant(ctx.db.prisma, { service: propertyDescriptor, scopes: ['properties:read'] });
    const forbidden = await ctx.send('POST', '/v1/properties', {}, readOnly.key);
    expect(forbidden.statusCode).toBe(403);
    expectDeprecated(forbidden, 'v1');
  });

  it('are only on the configured version: /leads/v1 and health stay plain while v1 is deprecated, and the other way round', async () => {
    const plain = [
      await v1Sunset.send('GET', '/leads/v1/interessenten'),
      await withoutKey(v1Sunset, '/leads/v1/interessenten'),
      await withoutKey(v1Sunset, '/health/live'),
      await leadsSunset.send('GET', '/v1/properties'),
      await withoutKey(leadsSunset, '/v1/properties'),
    ];
    expect(plain.map((res) => res.statusCode)).toEqual([200, 401, 200, 200, 401]);
    for (const res of plain) expectNotDeprecated(res);

    const leads = [
      await leadsSunset.send('GET', '/leads/v1/interessenten'),
      await withoutKey(leadsSunset, '/leads/v1/interessenten'),
    ];
    expect(leads.map((res) => res.statusCode)).toEqual([200, 401]);
    for (const res of leads) expectDeprecated(res, 'leads/v1');
  });
});

describe('last call per application and version', () => {
  const lastCalls = (ctx: PropertyTestContext, tenant: Tenant) =>
    ctx.db.prisma.applicationApiCall.findMany({
      where: { application_id: tenant.applicationId },
      orderBy: { api_version: 'asc' },
    });

  it('is recorded per version, whether or not the version is deprecated', async () => {
    const ctx = v1Sunset;
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    const at = new Date(ctx.clock.now.getTime());
    await ctx.send('GET', '/v1/properties', undefined, tenant.key);
    await ctx.send('GET', '/leads/v1/interessenten', undefined, tenant.key);
    const rows = await until(async () =>
      (await lastCalls(ctx, tenant)).length === 2 ? lastCalls(ctx, tenant) : undefined,
    );
    expect(rows.map((row) => [row.api_version, row.last_called_at.toISOString()])).toEqual([
      ['leads/v1', at.toISOString()],
      ['v1', at.toISOString()],
    ]);
    // A request without a valid key belongs to no application.
    const before = await ctx.db.prisma.applicationApiCall.findMany();
    await withoutKey(ctx, '/leads/v1/interessenten');
    await sleep(100);
    expect(await ctx.db.prisma.applicationApiCall.findMany()).toEqual(before);
  });

  it('is written at most once a minute per application and version (counted by a trigger)', async () => {
    const ctx = leadsSunset;
    const prisma = ctx.db.prisma;
    await prisma.$executeRawUnsafe('CREATE TABLE api_call_writes (application_id text, last_called_at timestamptz)');
    await prisma.$executeRawUnsafe(`CREATE FUNCTION count_api_call_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO api_call_writes VALUES (NEW.application_id, NEW.last_called_at); RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe(
      'CREATE TRIGGER count_api_call_writes AFTER INSERT OR UPDATE ON application_api_calls FOR EACH ROW EXECUTE FUNCTION count_api_call_write()',
    );
    const tenant = await createTenant(prisma, { service: propertyDescriptor });
    const writes = () =>
      prisma.$queryRawUnsafe<{ last_called_at: Date }[]>(
        'SELECT last_called_at FROM api_call_writes WHERE application_id = $1 ORDER BY last_called_at',
        tenant.applicationId,
      );
    const start = ctx.clock.now.getTime();
    const callAt = async (offsetMs: number) => {
      ctx.clock.now = new Date(start + offsetMs);
      expect((await ctx.send('GET', '/v1/properties', undefined, tenant.key)).statusCode).toBe(200);
    };

    await callAt(0);
    await until(async () => (await writes()).length === 1);
    for (const offset of [1_000, 30_000, 59_999]) await callAt(offset);
    await callAt(60_000);
    await until(async () => (await writes()).length >= 2);
    await sleep(200); // room for any stray write
    expect((await writes()).map((row) => row.last_called_at.getTime() - start)).toEqual([0, 60_000]);
    expect((await lastCalls(ctx, tenant))[0].last_called_at.getTime()).toBe(start + 60_000);
  });

  it('a write that fails is logged and the request still succeeds', async () => {
    const ctx = v1Sunset;
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 120_000);
    expect((await ctx.send('GET', '/v1/properties', undefined, tenant.key)).statusCode).toBe(200);
    await until(async () => (await lastCalls(ctx, tenant)).length === 1);
    // The key stays cached a few seconds after its application is gone: the insert then breaks the foreign key.
    await ctx.db.prisma.application.delete({ where: { id: tenant.applicationId } });
    const res = await ctx.send('GET', '/leads/v1/interessenten', undefined, tenant.key);
    expect(res.statusCode).toBe(200);
    await until(async () => ctx.logs.text.includes('last API call not recorded'));
    expect(await ctx.db.prisma.applicationApiCall.count({ where: { application_id: tenant.applicationId } })).toBe(0);
  });
});
