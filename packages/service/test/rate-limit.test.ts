import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFound } from '@platform/http';
import {
  addKey,
  createTenant,
  freePort,
  limiterRedis,
  startTestApp,
  testRedis,
  type AppBuildDeps,
  type TestApp,
} from '@platform/testkit';
import { createServiceApp, type RateLimitSettings } from '../src/index.js';
import { thingService } from './thing-service.js';

const service = thingService;

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
        v1.post(
          '/things',
          { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
          async () => ({ ok: true }),
        );
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

/** A new account with one application and `keys` keys of it (each application has a budget of its own). */
const freshApp = async (keys = 1) => {
  const tenant = await createTenant(ctx.db.prisma, { service });
  const more = [];
  for (let i = 1; i < keys; i++)
    more.push((await addKey(ctx.db.prisma, tenant, { service, scopes: service.scopes })).key);
  return { ...tenant, keys: [tenant.key, ...more] };
};
const get = (app: FastifyInstance, url: string, key?: string) =>
  app.inject({ method: 'GET', url, headers: key ? { apikey: key } : {} });
const budget = (res: LightMyRequestResponse) => ({
  limit: res.headers['ratelimit-limit'],
  remaining: res.headers['ratelimit-remaining'],
});
const rateLimitHeaders = (res: LightMyRequestResponse) =>
  Object.keys(res.headers).filter((name) => name.startsWith('ratelimit') || name === 'retry-after');
const ENGLISH =
  /^Too many requests: this application may make 5 requests per minute \(all its keys together\); retry in \d+ s\.$/;
const GERMAN =
  /^Zu viele Anfragen: diese Anwendung darf 5 Anfragen pro Minute stellen \(alle ihre Schlüssel zusammen\); wieder möglich in \d+ s\.$/;

describe('rate limits per application, shared by its keys', () => {
  it('three keys of one application share its budget: of 15 requests in a minute, 5 are answered and the 6th is 429', async () => {
    const tenant = await freshApp(3);
    const { keys } = tenant;
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 15; i++) answers.push(await get(ctx.app, '/v1/things/known', keys[i % 3]));
    expect(answers.map((res) => res.statusCode)).toEqual([...Array(5).fill(200), ...Array(10).fill(429)]);
    // The headers show the application's budget counting down, whichever key calls.
    expect(answers.slice(0, 6).map(budget)).toEqual(
      [4, 3, 2, 1, 0, 0].map((remaining) => ({ limit: '5', remaining: String(remaining) })),
    );
    expect(answers[5].json()).toEqual({ code: 'rate_limited', message: expect.stringMatching(ENGLISH) });
    expect(Number(answers[5].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // A key created now gets nothing more; another application keeps its own budget.
    const fourth = (await addKey(ctx.db.prisma, tenant, { service, scopes: service.scopes })).key;
    expect((await get(ctx.app, '/v1/things/known', fourth)).statusCode).toBe(429);
    const other = await freshApp();
    expect(budget(await get(ctx.app, '/v1/things/known', other.key))).toEqual({ limit: '5', remaining: '4' });
  });

  it('every authenticated answer carries the budget: a 200, a 404 and a 422 count down the same application', async () => {
    const { keys } = await freshApp(2);
    const ok = await get(ctx.app, '/v1/things/known', keys[0]);
    const missing = await get(ctx.app, '/v1/things/unknown', keys[1]);
    const invalid = await ctx.send('POST', '/v1/things', { name: 42 }, keys[0]);
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
    const { keys } = await freshApp(2);
    for (let i = 0; i < PER_MINUTE - 1; i++)
      expect((await get(ctx.app, '/v1/things/known', keys[i % 2])).statusCode).toBe(200);
    expect((await get(ctx.app, '/leads/v1/dinge', keys[1])).statusCode).toBe(200);

    const english = await get(ctx.app, '/v1/things/known', keys[0]);
    expect(english.statusCode).toBe(429);
    expect(english.json()).toEqual({ code: 'rate_limited', message: expect.stringMatching(ENGLISH) });
    const retryAfter = Number(english.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(budget(english)).toEqual({ limit: '5', remaining: '0' });
    expect(english.headers['ratelimit-reset']).toBe(String(retryAfter));

    const german = await get(ctx.app, '/leads/v1/dinge', keys[1]);
    expect(german.statusCode).toBe(429);
    expect(german.json()).toEqual({ code: 'rate_limited', message: expect.stringMatching(GERMAN) });
    expect(german.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(german.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(budget(german)).toEqual({ limit: '5', remaining: '0' });
  });

  it('requests without a valid key get 401 without budget headers; health and openapi.json are not limited', async () => {
    const { key } = await freshApp();
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

  it("the counter in Redis is the application's and expires with its window (a TTL of at most 60 s); keys have none", async () => {
    await get(ctx.app, '/v1/things/known', ctx.tenant.key);
    const ttl = await redis.pttl(`${prefix}${ctx.tenant.applicationId}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await redis.exists(`${prefix}${ctx.tenant.keyId}`)).toBe(0);
  });

  it("honours the application's own budget, and a changed one once the key cache has expired", async () => {
    await ctx.db.prisma.application.update({
      where: { id: ctx.other.applicationId },
      data: { rate_limit_per_minute: 2 },
    });
    const first = await get(ctx.app, '/v1/things/known', ctx.other.key);
    expect(budget(first)).toEqual({ limit: '2', remaining: '1' });
    expect((await get(ctx.app, '/v1/things/known', ctx.other.key)).statusCode).toBe(200);
    const over = await get(ctx.app, '/v1/things/known', ctx.other.key);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/^Too many requests: this application may make 2 requests per minute/);

    await ctx.db.prisma.application.update({
      where: { id: ctx.other.applicationId },
      data: { rate_limit_per_minute: 10 },
    });
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 5_000); // past the verifier's 4 s cache
    const raised = await get(ctx.app, '/v1/things/known', ctx.other.key);
    expect(raised.statusCode).toBe(200);
    expect(budget(raised)).toEqual({ limit: '10', remaining: '6' }); // the fourth request of the window

    await ctx.db.prisma.application.update({
      where: { id: ctx.other.applicationId },
      data: { rate_limit_per_minute: null },
    });
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 5_000);
    expect(budget(await get(ctx.app, '/v1/things/known', ctx.other.key))).toEqual({ limit: '5', remaining: '0' });
    expect((await get(ctx.app, '/v1/things/known', ctx.other.key)).statusCode).toBe(429);
  });

  it("two instances on one Redis share the application's budget: two keys on two instances answer 5 together, then 429 on both", async () => {
    const second = await buildApp(deps, { redis, perMinute: PER_MINUTE, prefix });
    extraApps.push(second);
    const { keys } = await freshApp(2);
    const answers: LightMyRequestResponse[] = [];
    // Instance and key alternate independently: each key is seen by both instances.
    for (let i = 0; i < PER_MINUTE + 3; i++)
      answers.push(await get(i % 2 === 0 ? ctx.app : second, '/v1/things/known', keys[Math.floor(i / 2) % 2]));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(answers.map((res) => res.headers['ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0', '0', '0']);
  });

  it('Redis unreachable: requests pass without budget headers and one warning is logged, however many requests', async () => {
    const down = await limiterRedis(await freePort());
    extraClients.push(down);
    const warnings: string[] = [];
    const app = await buildApp(deps, {
      redis: down,
      perMinute: PER_MINUTE,
      prefix,
      warn: (line) => warnings.push(line),
    });
    extraApps.push(app);
    const { keys } = await freshApp(2);
    const started = Date.now();
    for (let i = 0; i < PER_MINUTE * 4; i++) {
      const res = await get(app, i % 2 === 0 ? '/v1/things/known' : '/leads/v1/dinge', keys[i % 2]);
      expect(res.statusCode).toBe(200);
      expect(rateLimitHeaders(res)).toEqual([]);
    }
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^Rate limits are not applied: Redis is unreachable \(.+\)\. Requests pass without a limit\.$/,
    );
  });
});
