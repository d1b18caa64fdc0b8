import type { LightMyRequestResponse } from 'fastify';
import { type Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, limiterRedis, startTestApp, testRedis, type TestApp } from '@platform/testkit';
import { createServiceApp } from '../src/index.js';
import { thingService } from './thing-service.js';

// docs/conventions.md: `RateLimit-*` headers on every authenticated answer, a 403 for a missing
// scope included (the auth plugin refuses it before the rate-limit hook would have run).
const service = thingService;

const PER_MINUTE = 5;
const prefix = `${testRedis().prefix}:ratelimit-403:`;
let redis: Redis;
let ctx: TestApp;

beforeAll(async () => {
  redis = await limiterRedis();
  ctx = await startTestApp(service, (deps) =>
    createServiceApp(
      { ...deps, rateLimit: { redis, perMinute: PER_MINUTE, prefix }, maxEventLoopDelayMs: 0 },
      {
        service,
        document: { prefix: '/v1', title: 'Test API', description: 'Test API' },
        routes: async (v1) => {
          v1.get('/things', { config: { scope: 'things:read' } }, async () => ({ data: [] }));
        },
      },
    ),
  );
});
afterAll(async () => {
  await ctx?.close();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const budget = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  limit: res.headers['ratelimit-limit'],
  remaining: res.headers['ratelimit-remaining'],
  reset: Number(res.headers['ratelimit-reset']) > 0,
});

describe('RateLimit headers on a 403 for a missing scope', () => {
  it('a key without the scope gets 403 scope_missing with the budget headers, and the 403 counts like any answer', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service, scopes: ['things:read'] });
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { apikey: tenant.key } });
    const allowed = await get('/v1/things');
    const forbidden = await get('/v1/api-keys'); // needs keys:manage
    const again = await get('/v1/things');
    expect(forbidden.json()).toMatchObject({ code: 'scope_missing' });
    expect([allowed, forbidden, again].map(budget)).toEqual([
      { status: 200, limit: '5', remaining: '4', reset: true },
      { status: 403, limit: '5', remaining: '3', reset: true },
      { status: 200, limit: '5', remaining: '2', reset: true },
    ]);
  });

  it('over budget a wrong-scope request stays 403, with the spent budget in its headers', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service, scopes: ['things:read'] });
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { apikey: tenant.key } });
    for (let i = 0; i < PER_MINUTE; i++) expect((await get('/v1/things')).statusCode).toBe(200);
    expect((await get('/v1/things')).statusCode).toBe(429);
    expect(budget(await get('/v1/api-keys'))).toEqual({ status: 403, limit: '5', remaining: '0', reset: true });
  });
});
