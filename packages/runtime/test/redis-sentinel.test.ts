import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startSentinelRedis, type SentinelRedis } from '@platform/testkit';
import { ConfigError, loadConfig } from '../src/config.js';
import { openRedis, RedisUnavailableError } from '../src/redis.js';

const dirs: string[] = [];
const configFor = (env: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'redis-sentinel-config-'));
  dirs.push(dir);
  return loadConfig(env, dir);
};
const problemsOf = (env: Record<string, string>) => {
  try {
    configFor(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
};

let redis: SentinelRedis;
beforeAll(async () => {
  redis = await startSentinelRedis('sentinel-test');
}, 60_000);
afterAll(async () => {
  await redis?.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the Redis Sentinel configuration', () => {
  it('takes the sentinels (port 26379 when left out, IPv6 in brackets), the primary name and both passwords, never showing them', () => {
    const config = configFor({
      REDIS_SENTINELS: 'redis-a:26380, redis-b,[::1]:26381',
      REDIS_SENTINEL_MASTER: 'queue',
      REDIS_PASSWORD: 'data-secret',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    });
    expect(config.redisUrl).toBeUndefined();
    expect(config.redisSentinel).toMatchObject({
      sentinels: [
        { host: 'redis-a', port: 26380 },
        { host: 'redis-b', port: 26379 },
        { host: '::1', port: 26381 },
      ],
      masterName: 'queue',
      password: 'data-secret',
      sentinelPassword: 'sentinel-secret',
    });
    for (const shown of [JSON.stringify(config), inspect(config, { depth: 5 })]) {
      expect(shown).not.toMatch(/data-secret|sentinel-secret/);
      expect(shown).toContain('redis-a');
    }
  });

  it('reports every Sentinel problem at once, without echoing a password', () => {
    const problems = problemsOf({
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_SENTINELS: 'good:26379,bad:port,:1',
      REDIS_PASSWORD: 'data-secret',
    });
    expect(problems).toEqual([
      expect.stringMatching(/REDIS_URL and REDIS_SENTINELS are both set/),
      expect.stringMatching(/REDIS_SENTINELS must be a comma-separated list of host:port \(got "bad:port", ":1"\)/),
      expect.stringMatching(/REDIS_SENTINEL_MASTER is required with REDIS_SENTINELS/),
    ]);
    expect(problemsOf({ REDIS_SENTINELS: 'a', REDIS_SENTINEL_MASTER: 'two words' })).toEqual([
      expect.stringMatching(/REDIS_SENTINEL_MASTER must be a name/),
    ]);
    const strays = problemsOf({ REDIS_PASSWORD: 'data-secret', REDIS_SENTINEL_PASSWORD: 'sentinel-secret' });
    expect(strays).toEqual([
      expect.stringMatching(/REDIS_PASSWORD is set but REDIS_SENTINELS is not.*put the password in the URL/),
      expect.stringMatching(/REDIS_SENTINEL_PASSWORD is set but REDIS_SENTINELS is not/),
    ]);
    expect(JSON.stringify([problems, strays])).not.toMatch(/data-secret|sentinel-secret/);
  });
});

describe('openRedis behind Sentinel', () => {
  it('hands ioredis and BullMQ the sentinels and the primary name, after checking the primary and its replica', async () => {
    const lines: string[] = [];
    const resolved = await openRedis(configFor(redis.env), (line) => lines.push(line));
    expect(lines).toEqual([]);
    expect(resolved.connection).toMatchObject({
      name: 'sentinel-test',
      sentinels: redis.sentinelList.split(',').map((address) => ({
        host: '127.0.0.1',
        port: Number(address.split(':')[1]),
      })),
      password: redis.env.REDIS_PASSWORD,
      sentinelPassword: redis.env.REDIS_SENTINEL_PASSWORD,
      maxRetriesPerRequest: null,
    });
    expect(resolved.url).not.toContain(redis.env.REDIS_PASSWORD);
    const client = new Redis(resolved.connection);
    try {
      expect(await client.set('through-sentinel', '1')).toBe('OK');
      expect((await client.call('ROLE')) as [string]).toContain('master');
    } finally {
      client.disconnect();
    }
  });

  it('says which part is wrong: no sentinel answers, a password refused, an unknown primary name', async () => {
    const secrets = [redis.env.REDIS_PASSWORD!, redis.env.REDIS_SENTINEL_PASSWORD!];
    const refusal = async (env: Record<string, string>) => {
      const error = await openRedis(configFor({ ...redis.env, ...env })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisUnavailableError);
      const message = (error as Error).message;
      for (const secret of secrets) expect(message).not.toContain(secret);
      return message;
    };
    const nobody = `127.0.0.1:${await freePort()}`;
    expect(await refusal({ REDIS_SENTINELS: nobody })).toMatch(
      `None of the sentinels of REDIS_SENTINELS answered (${nobody}: nothing listens there): start them, or fix REDIS_SENTINELS.`,
    );
    expect(await refusal({ REDIS_SENTINEL_PASSWORD: 'wrong' })).toMatch(
      /None of the sentinels of REDIS_SENTINELS answered \(.*refused the password.*fix REDIS_SENTINEL_PASSWORD/,
    );
    expect(await refusal({ REDIS_SENTINEL_MASTER: 'unknown' })).toMatch(
      'The sentinels of REDIS_SENTINELS know no primary named "unknown": fix REDIS_SENTINEL_MASTER',
    );
    expect(await refusal({ REDIS_PASSWORD: 'wrong' })).toMatch(
      /Could not use the primary "sentinel-test" of the sentinels .*, now at 127\.0\.0\.1:\d+ \(refused the password.*\): fix REDIS_PASSWORD\./,
    );
  });

  it('warns of a sentinel that does not answer, and refuses a replica that may evict keys (a failover makes it the primary)', async () => {
    const lines: string[] = [];
    const nobody = `127.0.0.1:${await freePort()}`;
    await (
      await openRedis(configFor({ ...redis.env, REDIS_SENTINELS: `${redis.sentinelList},${nobody}` }), (line) =>
        lines.push(line),
      )
    ).close();
    expect(lines).toEqual([
      `WARNING: 1 of 4 sentinels did not answer (${nobody}: nothing listens there): a failover needs a majority of them.`,
    ]);

    const primary = await redis.primary();
    const [, port] = /slave0:ip=[^,]+,port=(\d+)/.exec(await primary.info('replication'))!;
    primary.disconnect();
    const replica = new Redis({ host: '127.0.0.1', port: Number(port), password: redis.env.REDIS_PASSWORD });
    try {
      await replica.config('SET', 'maxmemory-policy', 'allkeys-lru');
      await expect(openRedis(configFor(redis.env))).rejects.toThrow(
        `The Redis replica 127.0.0.1:${port} of "sentinel-test" has maxmemory-policy allkeys-lru`,
      );
    } finally {
      await replica.config('SET', 'maxmemory-policy', 'noeviction');
      replica.disconnect();
    }
  });
});
