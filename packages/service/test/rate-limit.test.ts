import { Type } from '@sinclair/typebox';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFound } from '@platform/http';
import { TEST_SERVICES, addKey, freePort, limiterRedis, startTestApp, testRedis, type AppBuildDeps, type TestApp } from '@platform/testkit';
import { createServiceApp, defineService, type RateLimitSettings } from '../src/index.js';

const service = defineService({
  ...TEST_SERVICES[0],
  webhookHeaderPrefix: 'Test',
  events: [{ type: 'thing.created', description: 'A thing was created.', scope: 'things:read', data: Type.Object({ id: Type.String() }) }],
  jobs: [],
  port: { variable: 'TEST_PORT', default: 0, description: 'unused' },
  settings: [],
  loggedQueryParameters: [],
});

/** A service with a `/v1` API (English) and a `/leads/v1` API (German), as both real services are wired. */
const buildApp = (deps: AppBuildDeps, rateLimit: RateLimitSettings) =>
  createServiceApp(
    // No overload guard (0): under-pressure answers 503 after any sample interval without a loop tick
    // (building an app, a first request compiling its schemas), whatever the threshold.
    { ...deps, rateLimit, maxEventLoopDelayMs: 0 },
    {
      service,
      dialectFor: (url) => (url.startsWith('/leads/') ? 'de' : 'en'),
      document: { prefix: '/v1', title: 'Test API', description: 'Test API' },
      routes: async (v1) => {
        v1.get<{ Params: { id: string } }>('/things/:id', async (request) => {
          if (request.params.id !== 'known') throw notFound();
          return { id: 'known' };
        });
        v1.post('/things', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } }, async () => ({ ok: true }));
      },
      extraApis: [
        {
          document: { prefix: '/leads/v1', title: 'Leads', description: 'Leads' },
          routes: async (api) => {
            api.get('/dinge', async () => ({ daten: [] }));
          },
        },
      ],
    },
  );

const PER_MINUTE = 5;
const prefix = `${testRedis().prefix}:ratelimit:`;
let redis: Redis;
let deps: AppBuildDeps;
let ctx: TestApp;
const extraApps: FastifyInstance[] = [];
const extraClients: Redis[] = [];

beforeAll(async () => {
  redis = await limiterRedis();
  ctx = await startTestApp(service, (given) => {
    deps = given;
    return buildApp(given, { redis, perMinute: PER_MINUTE, prefix });
  });
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  for (const client of extraClients) client.disconnect();
  await ctx?.close();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const freshKey = async () => (await addKey(ctx.db.prisma, ctx.tenant, { service, scopes: service.scopes })).key;
const get = (app: FastifyInstance, url: string, key?: string) => app.inject({ method: 'GET', url, headers: key ? { apikey: key } : {} });
const budget = (res: LightMyRequestResponse) => ({
  limit: res.headers['ratelimit-limit'],
  remaining: res.headers['ratelimit-remaining'],
});
const rateLimitHeaders = (res: LightMyRequestResponse) => Object.keys(res.headers).filter((name) => name.startsWith('ratelimit') || name === 'retry-after');

describe('rate limits per API key', () => {
  it('every authenticated answer carries the budget: a 200, a 404 and a 422 count down the same key', async () => {
    const key = await freshKey();
    const ok = await get(ctx.app, '/v1/things/known', key);
    const missing = await get(ctx.app, '/v1/things/unknown', key);
    const invalid = await ctx.send('POST', '/v1/things', { name: 42 }, key);
    expect([ok.statusCode, missing.statusCode, invalid.statusCode]).toEqual([200, 404, 422]);
    expect([ok, missing, invalid].map(budget)).toEqual([
      { limit: '5', remaining: '4' },
      { limit: '5', remaining: '3' },
      { limit: '5', remaining: '2' },
    ]);
    for (const res of [ok, missing, invalid]) {
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
      expect(res.headers['retry-after']).toBeUndefined();
    }
  });

  it('over budget: 429 rate_limited with Retry-After, in English on /v1 and in German on /leads/v1 (one budget for both)', async () => {
    const key = await freshKey();
    for (let i = 0; i < PER_MINUTE - 1; i++) expect((await get(ctx.app, '/v1/things/known', key)).statusCode).toBe(200);
    expect((await get(ctx.app, '/leads/v1/dinge', key)).statusCode).toBe(200);

    const english = await get(ctx.app, '/v1/things/known', key);
    expect(english.statusCode).toBe(429);
    expect(english.json()).toEqual({ code: 'rate_limited', message: expect.stringMatching(/^Too many requests: this key may make 5 requests per minute; retry in \d+ s\.$/) });
    const retryAfter = Number(english.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(budget(english)).toEqual({ limit: '5', remaining: '0' });
    expect(english.headers['ratelimit-reset']).toBe(String(retryAfter));

    const german = await get(ctx.app, '/leads/v1/dinge', key);
    expect(german.statusCode).toBe(429);
    expect(german.json()).toEqual({ code: 'rate_limited', message: expect.stringMatching(/^Zu viele Anfragen: dieser Schlüssel darf 5 Anfragen pro Minute stellen; wieder möglich in \d+ s\.$/) });
    expect(german.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(german.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(budget(german)).toEqual({ limit: '5', remaining: '0' });
  });

  it('requests without a valid key get 401 without budget headers; health and openapi.json are not limited', async () => {
    const key = await freshKey();
    for (let i = 0; i <= PER_MINUTE; i++) await get(ctx.app, '/v1/things/known', key);
    expect((await get(ctx.app, '/v1/things/known', key)).statusCode).toBe(429);

    const noKey = await get(ctx.app, '/v1/things/known');
    expect(noKey.statusCode).toBe(401);
    expect(rateLimitHeaders(noKey)).toEqual([]);
    for (const url of ['/health/live', '/v1/openapi.json', '/leads/v1/openapi.json']) {
      const res = await get(ctx.app, url, key);
      expect(res.statusCode, url).toBe(200);
      expect(rateLimitHeaders(res), url).toEqual([]);
    }
  });

  it('the counter in Redis expires with its window: the key has a TTL of at most 60 s', async () => {
    await get(ctx.app, '/v1/things/known', ctx.tenant.key);
    const ttl = await redis.pttl(`${prefix}${ctx.tenant.keyId}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("honours the application's own budget, and a changed one once the key cache has expired", async () => {
    await ctx.db.prisma.application.update({ where: { id: ctx.other.applicationId }, data: { rate_limit_per_minute: 2 } });
    const first = await get(ctx.app, '/v1/things/known', ctx.other.key);
    expect(budget(first)).toEqual({ limit: '2', remaining: '1' });
    expect((await get(ctx.app, '/v1/things/known', ctx.other.key)).statusCode).toBe(200);
    expect((await get(ctx.app, '/v1/things/known', ctx.other.key)).statusCode).toBe(429);

    await ctx.db.prisma.application.update({ where: { id: ctx.other.applicationId }, data: { rate_limit_per_minute: 10 } });
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 5_000); // past the verifier's 4 s cache
    const raised = await get(ctx.app, '/v1/things/known', ctx.other.key);
    expect(raised.statusCode).toBe(200);
    expect(budget(raised)).toEqual({ limit: '10', remaining: '6' }); // the fourth request of the window

    await ctx.db.prisma.application.update({ where: { id: ctx.other.applicationId }, data: { rate_limit_per_minute: null } });
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 5_000);
    expect(budget(await get(ctx.app, '/v1/things/known', ctx.other.key))).toEqual({ limit: '5', remaining: '0' });
    expect((await get(ctx.app, '/v1/things/known', ctx.other.key)).statusCode).toBe(429);
  });

  it('two instances on one Redis share the budget: together they answer 5, then 429 on both', async () => {
    const second = await buildApp(deps, { redis, perMinute: PER_MINUTE, prefix });
    extraApps.push(second);
    const key = await freshKey();
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE + 2; i++) statuses.push((await get(i % 2 === 0 ? ctx.app : second, '/v1/things/known', key)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it('Redis unreachable: requests pass without budget headers and one warning is logged, however many requests', async () => {
    const down = await limiterRedis(await freePort());
    extraClients.push(down);
    const warnings: string[] = [];
    const app = await buildApp(deps, { redis: down, perMinute: PER_MINUTE, prefix, warn: (line) => warnings.push(line) });
    extraApps.push(app);
    const key = await freshKey();
    const started = Date.now();
    for (let i = 0; i < PER_MINUTE * 4; i++) {
      const res = await get(app, i % 2 === 0 ? '/v1/things/known' : '/leads/v1/dinge', key);
      expect(res.statusCode).toBe(200);
      expect(rateLimitHeaders(res)).toEqual([]);
    }
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Rate limits are not applied: Redis is unreachable \(.+\)\. Requests pass without a limit\.$/);
  });
});
