import { type Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, limiterRedis, testRedis, until } from '@platform/testkit';
import { RATE_LIMIT_WINDOW_MS, RateLimitCounter, type Budget } from '../src/rate-limit-counter.js';

/** A connection as the services open the limiter's: no offline queue, short timeouts. */
let redis: Redis;
const clients: Redis[] = [];
const prefixes: string[] = [];
beforeAll(async () => {
  redis = await limiterRedis();
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

/** A key prefix of this test's own. */
function freshPrefix(): string {
  const prefix = `${testRedis().prefix}:counter:`;
  prefixes.push(prefix);
  return prefix;
}

const flushErrors: unknown[] = [];
const counterOn = (client: Redis, prefix: string, now?: () => number) =>
  new RateLimitCounter(client, prefix, (error) => flushErrors.push(error), now);
const shared = async (prefix: string, keyId: string) => Number(await redis.get(prefix + keyId));
const passed = (budgets: Budget[]) => budgets.filter((budget) => budget.count <= budget.max).length;

describe('one counter', () => {
  it('with a small budget asks Redis for every request: counts are exact and in Redis at once', async () => {
    const prefix = freshPrefix();
    const counter = counterOn(redis, prefix);
    for (let n = 1; n <= 8; n++) {
      const budget = await counter.count('key', 5);
      expect(budget).toMatchObject({ max: 5, count: n });
      expect(budget.resetMs).toBeGreaterThan(0);
      expect(budget.resetMs).toBeLessThanOrEqual(RATE_LIMIT_WINDOW_MS);
      expect(await shared(prefix, 'key')).toBe(n);
    }
    await counter.close();
  });

  it('with a large budget counts far from it locally and adds the count to Redis on flush', async () => {
    const prefix = freshPrefix();
    const counter = counterOn(redis, prefix);
    const counts: number[] = [];
    for (let n = 0; n < 500; n++) counts.push((await counter.count('key', 10_000)).count);
    expect(counts).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(await shared(prefix, 'key')).toBeLessThan(500); // the first asked Redis, the rest are local until a flush
    await counter.flush();
    expect(await shared(prefix, 'key')).toBe(500);
    const ttl = await redis.pttl(prefix + 'key');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(RATE_LIMIT_WINDOW_MS);
    await counter.close();
  });

  it('counts locally at once (countLocally) only where count would, and both add up to the same counts', async () => {
    const prefix = freshPrefix();
    let now = 2_000_000;
    const counter = counterOn(redis, prefix, () => now);
    expect(counter.countLocally('key', 10_000)).toBeUndefined(); // nothing known yet: Redis is to be asked
    expect(await counter.count('key', 10_000)).toMatchObject({ count: 1 });
    const local = Array.from({ length: 5 }, () => counter.countLocally('key', 10_000));
    expect(local.map((budget) => budget?.count)).toEqual([2, 3, 4, 5, 6]);
    expect(local[0]).toMatchObject({ max: 10_000, resetMs: RATE_LIMIT_WINDOW_MS });
    expect((await counter.count('key', 10_000)).count).toBe(7);
    // Near the budget (within half of it) every request asks Redis: not counted locally.
    expect(counter.countLocally('key', 12)).toBeUndefined();
    expect((await counter.count('key', 12)).count).toBe(8);
    // A window that has ended is not counted locally either: its count is carried by count.
    now += RATE_LIMIT_WINDOW_MS;
    expect(counter.countLocally('key', 10_000)).toBeUndefined();
    await counter.flush();
    expect(await shared(prefix, 'key')).toBe(8);
    await counter.close();
  });

  it('flushes by itself about 100 ms after a local count', async () => {
    const prefix = freshPrefix();
    const counter = counterOn(redis, prefix);
    await counter.count('key', 10_000);
    for (let n = 0; n < 20; n++) await counter.count('key', 10_000);
    const started = Date.now();
    await until(async () => ((await shared(prefix, 'key')) === 21 ? true : undefined), 2_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    await counter.close();
  });

  it('keeps counting into a new window when the old one has ended: the carried local count, then this request', async () => {
    const prefix = freshPrefix();
    let now = 1_000_000;
    const counter = counterOn(redis, prefix, () => now);
    await counter.count('key', 10_000); // asks Redis: the window ends 60 s from now
    const local = await Promise.all(Array.from({ length: 7 }, () => counter.count('key', 10_000)));
    expect(local.map((budget) => budget.count)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    // Past the window's end; Redis has expired the counter (simulated, before the flush at 100 ms).
    now += RATE_LIMIT_WINDOW_MS + 1;
    await redis.del(prefix + 'key');
    const next = await counter.count('key', 10_000);
    expect(next.count).toBe(7 + 1);
    expect(await shared(prefix, 'key')).toBe(8);
    expect(next.resetMs).toBeGreaterThan(RATE_LIMIT_WINDOW_MS - 5_000);
    await counter.flush();
    expect(await shared(prefix, 'key')).toBe(8); // nothing counted twice
    await counter.close();
  });

  // A near-limit request is known locally the moment it is sent to Redis: requests arriving while it
  // waits must not see the budget as untouched (they did, and ~297 of 300 passed a budget of 200).
  it('a concurrent burst of one instance lets no more than the budget pass', async () => {
    const prefix = freshPrefix();
    const counter = counterOn(redis, prefix);
    for (let n = 0; n < 90; n++) await counter.count('key', 200); // far from the limit: local
    const burst = await Promise.all(Array.from({ length: 300 }, () => counter.count('key', 200)));
    expect(90 + passed(burst)).toBeLessThanOrEqual(200);
    await counter.close();
  });
});

describe('two counters on one Redis (two instances)', () => {
  // Bound: each instance counts locally only while more than half the budget remains as far as it
  // knows, so what one instance has let pass without telling Redis is below max / 2. Near the limit
  // every request asks Redis, so the only excess is what the other instance has not yet added:
  // with two instances at most max + max / 2 - 1 requests pass (299 of a budget of 200).
  const MAX = 200;
  const BOUND = MAX + MAX / 2 - 1;

  it('interleaved requests, one at a time: at most the bound pass, and every request is counted in Redis', async () => {
    const prefix = freshPrefix();
    const a = counterOn(redis, prefix);
    const b = counterOn(redis, prefix);
    const budgets: Budget[] = [];
    for (let n = 0; n < 250; n++) {
      budgets.push(await a.count('key', MAX));
      budgets.push(await b.count('key', MAX));
    }
    expect(passed(budgets)).toBeGreaterThanOrEqual(MAX);
    expect(passed(budgets)).toBeLessThanOrEqual(BOUND);
    // Once over, every later answer says so (near the limit the count comes from Redis).
    const firstRefused = budgets.findIndex((budget) => budget.count > MAX);
    expect(budgets.slice(firstRefused).every((budget) => budget.count > MAX)).toBe(true);
    await a.flush();
    await b.flush();
    expect(await shared(prefix, 'key')).toBe(500);
    await Promise.all([a.close(), b.close()]);
  });

  it('interleaved rounds of 50 concurrent requests: at most the bound pass', async () => {
    const prefix = freshPrefix();
    const a = counterOn(redis, prefix);
    const b = counterOn(redis, prefix);
    const budgets: Budget[] = [];
    for (let round = 0; round < 10; round++) {
      budgets.push(...(await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).count('key', MAX)))));
    }
    expect(passed(budgets)).toBeGreaterThanOrEqual(MAX);
    expect(passed(budgets)).toBeLessThanOrEqual(BOUND);
    await Promise.all([a.close(), b.close()]);
  });

  // The same over two instances: a burst's requests must not pass locally while a near-limit one is in flight.
  it('a burst of 300 concurrent requests over both warmed instances: at most the bound pass', async () => {
    const prefix = freshPrefix();
    const a = counterOn(redis, prefix);
    const b = counterOn(redis, prefix);
    for (let n = 0; n < 10; n++) await Promise.all([a.count('key', MAX), b.count('key', MAX)]);
    const burst = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).count('key', MAX)));
    expect(20 + passed(burst)).toBeLessThanOrEqual(BOUND);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('Redis unreachable', () => {
  it('count rejects, so that the caller can let the request pass', async () => {
    const down = await limiterRedis(await freePort());
    clients.push(down);
    const counter = counterOn(down, freshPrefix());
    await expect(counter.count('key', 5)).rejects.toThrow();
    await expect(counter.count('key', 10_000)).rejects.toThrow(); // no local state was made of the failure
    await counter.close();
  });

  it('a failed flush is reported and drops the key’s local state: the next request asks Redis', async () => {
    const prefix = freshPrefix();
    const client = await limiterRedis();
    clients.push(client);
    const counter = counterOn(client, prefix);
    await counter.count('key', 10_000); // Redis: 1
    for (let n = 0; n < 5; n++) await counter.count('key', 10_000); // local: 5 pending
    const ended = new Promise((resolve) => client.once('end', resolve));
    client.disconnect();
    const errorsBefore = flushErrors.length;
    await counter.flush();
    expect(flushErrors.length).toBe(errorsBefore + 1);
    expect(flushErrors.at(-1)).toBeInstanceOf(Error);

    await ended;
    await client.connect();
    const next = await counter.count('key', 10_000);
    // Had the state stayed, this would be counted locally as 7; dropped, Redis answers 1 + 1.
    expect(next.count).toBe(2);
    expect(await shared(prefix, 'key')).toBe(2);
    await counter.close();
  });
});
