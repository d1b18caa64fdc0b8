import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, limiterRedis, startTestApp, testRedis, type AppBuildDeps, type TestApp } from '@platform/testkit';
import { buildPropertyApp, type PropertyAppDeps } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';
import { createChannel, feedPathOf } from './helpers.js';

/** The limiter's Redis connection, as the services open it. */
type Redis = Awaited<ReturnType<typeof limiterRedis>>;

const PER_TOKEN = 5;
const PER_ADDRESS = 8;
const prefix = `${testRedis().prefix}:ratelimit:`;
let redis: Redis;
let deps: AppBuildDeps;
let ctx: TestApp;
const extraApps: FastifyInstance[] = [];
const extraClients: Redis[] = [];

/** The property app with feed budgets, behind a trusted proxy unless told otherwise. */
const build = (given: AppBuildDeps, options: Partial<PropertyAppDeps> = {}) =>
  buildPropertyApp({
    ...given,
    trustProxy: true,
    rateLimit: { redis, perMinute: 10_000, prefix },
    feeds: { perToken: PER_TOKEN, perAddress: PER_ADDRESS },
    ...options,
  });

beforeAll(async () => {
  redis = await limiterRedis();
  ctx = await startTestApp(propertyDescriptor, (given) => {
    deps = given;
    return build(given);
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

let addressNumber = 0;
/** A client address of its own (the trusted proxy's X-Forwarded-For). */
const newAddress = () => `203.0.113.${++addressNumber}`;
const get = (url: string, address: string, app = ctx.app) =>
  app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': address } });
const unknownFeed = () => `/public/v1/feeds/${randomBytes(24).toString('base64url')}/listings`;

function expectLimited(res: LightMyRequestResponse, what: RegExp) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ code: 'rate_limited', message: expect.stringMatching(what) });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
}

async function extraApp(options: Partial<PropertyAppDeps>) {
  const app = await build(deps, options);
  await app.ready();
  extraApps.push(app);
  return app;
}

describe('rate limits of the public feeds', () => {
  it('refuses a token that has spent its budget, from any address, on every feed route; other tokens go on', async () => {
    const path = feedPathOf((await createChannel(ctx, 'website')).feed_url);
    const other = feedPathOf((await createChannel(ctx, 'website')).feed_url);
    for (let i = 0; i < PER_TOKEN; i++) expect((await get(path, newAddress())).statusCode).toBe(200);
    expectLimited(
      await get(path, newAddress()),
      new RegExp(`one feed may make ${PER_TOKEN} requests per minute; retry in \\d+ s`),
    );
    expectLimited(await get(`${path.replace(/\/listings$/, '')}/media/${'0'.repeat(64)}`, newAddress()), /one feed/);
    expectLimited(await get(`${path}/lst_1/pdf`, newAddress()), /one feed/);
    expect((await get(other, newAddress())).statusCode).toBe(200);
  });

  it('refuses an address that has spent its budget, whatever the tokens (unknown ones too); other addresses go on', async () => {
    const address = newAddress();
    const paths = [
      feedPathOf((await createChannel(ctx, 'website')).feed_url),
      feedPathOf((await createChannel(ctx, 'website')).feed_url),
    ];
    for (let i = 0; i < PER_ADDRESS; i++) {
      const res = await get(i % 3 === 2 ? unknownFeed() : paths[i % 3]!, address);
      expect(res.statusCode).toBe(i % 3 === 2 ? 404 : 200);
    }
    expectLimited(await get(paths[0]!, address), new RegExp(`one address may make ${PER_ADDRESS} requests per minute`));
    expectLimited(await get(unknownFeed(), address), /one address/);
    expect((await get(paths[0]!, newAddress())).statusCode).toBe(200);
  });

  it('takes the address from X-Forwarded-For only behind a trusted proxy', async () => {
    const app = await extraApp({
      trustProxy: false,
      rateLimit: { redis, perMinute: 10_000, prefix: `${prefix}untrusted:` },
    });
    for (let i = 0; i < PER_ADDRESS; i++) expect((await get(unknownFeed(), newAddress(), app)).statusCode).toBe(404);
    // Each came from 127.0.0.1 as far as this app knows.
    expectLimited(await get(unknownFeed(), newAddress(), app), /one address/);
  });

  it('lets feed requests pass while Redis is unreachable, and says so once', async () => {
    const down = await limiterRedis(await freePort());
    extraClients.push(down);
    const warnings: string[] = [];
    const app = await extraApp({
      rateLimit: { redis: down, perMinute: 10_000, prefix, warn: (line) => warnings.push(line) },
    });
    const path = feedPathOf((await createChannel(ctx, 'website')).feed_url);
    const address = newAddress();
    for (let i = 0; i < PER_ADDRESS + PER_TOKEN; i++) expect((await get(path, address, app)).statusCode).toBe(200);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Feed rate limits are not applied: Redis is unreachable/);
  });

  it('declares 429 with Retry-After on every public route, and keeps the token out of its log lines', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/public/v1/openapi.json' })).json() as {
      paths: Record<
        string,
        { get: { responses: Record<string, { description: string; headers?: Record<string, unknown> }> } }
      >;
    };
    const paths = Object.keys(document.paths);
    expect(paths).toHaveLength(4);
    for (const path of paths) {
      const tooMany = document.paths[path]!.get.responses['429'];
      expect(tooMany?.description, path).toMatch(/feed token, or from this client address/);
      expect(tooMany?.headers, path).toHaveProperty('Retry-After');
    }
    const token = randomBytes(24).toString('base64url');
    const start = ctx.logs.lines.length;
    const address = newAddress();
    for (let i = 0; i <= PER_ADDRESS; i++) await get(`/public/v1/feeds/${token}/listings`, address);
    const text = ctx.logs.lines.slice(start).join('');
    expect(text).toContain('"statusCode":429');
    expect(text).not.toContain(token);
  });
});
