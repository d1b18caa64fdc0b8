import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedis } from '@platform/testkit';
import { loadConfig } from '../src/config.js';
import { openRedis, RedisUnavailableError } from '../src/redis.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'redis-config-'));
  dirs.push(dir);
  return dir;
};
const configFor = (env: Record<string, string>, cwd = newDir()) => loadConfig(env, cwd);

describe('openRedis', () => {
  it('refuses a Redis that may evict keys, takes one with noeviction', async () => {
    const { url } = testRedis();
    const admin = new Redis(url);
    const lines: string[] = [];
    try {
      await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
      await expect(openRedis(configFor({ REDIS_URL: url }), (line) => lines.push(line))).rejects.toThrow(
        /maxmemory-policy allkeys-lru.*set it to noeviction/,
      );
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await (await openRedis(configFor({ REDIS_URL: url }), (line) => lines.push(line))).close();
      expect(lines).toEqual([]);
    } finally {
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      admin.disconnect();
    }
  });

  it('starts a local redis-server with AOF and noeviction when REDIS_URL is unset, reachable only with the password of the sandbox secrets', async () => {
    const port = 20_000 + Math.floor(Math.random() * 10_000); // below the ephemeral ports (32768 and up)
    const lines: string[] = [];
    const cwd = newDir();
    const config = configFor({ REDIS_PORT: String(port) }, cwd);
    const redis = await openRedis(config, (line) => lines.push(line));
    const client = new Redis(redis.url);
    const anonymous = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: true,
      enableReadyCheck: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    anonymous.on('error', () => {});
    try {
      expect(lines[0]).toMatch(`local redis-server started on 127.0.0.1:${port}`);
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await client.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
      expect(await client.config('GET', 'protected-mode')).toEqual(['protected-mode', 'yes']);
      expect(await client.config('GET', 'bind')).toEqual(['bind', '127.0.0.1']);
      const [, requirepass] = (await client.config('GET', 'requirepass')) as [string, string];
      expect(requirepass.length).toBeGreaterThanOrEqual(32);
      expect(redis.connection.password).toBe(requirepass);
      await anonymous.connect();
      await expect(anonymous.ping()).rejects.toThrow(/NOAUTH/);
      expect(statSync(join(config.dataDir, 'redis')).mode & 0o777).toBe(0o700);

      // A second process reuses it with the same password; a Redis without that password is refused.
      const again = await openRedis(configFor({ REDIS_PORT: String(port) }, cwd));
      expect(again.connection.password).toBe(requirepass);
      await again.close();
      await expect(openRedis(configFor({ REDIS_PORT: String(port) }))).rejects.toThrow(RedisUnavailableError);
    } finally {
      anonymous.disconnect();
      client.disconnect();
      await redis.close();
    }
  });
});
