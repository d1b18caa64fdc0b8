import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { testRedis } from '@platform/testkit';
import { loadConfig } from '../src/config.js';
import { openRedis } from '../src/redis.js';

const configFor = (env: Record<string, string>) => loadConfig(env, mkdtempSync(join(tmpdir(), 'redis-config-')));

describe('openRedis', () => {
  it('warns when Redis may evict keys, and not when it is noeviction', async () => {
    const { url } = testRedis();
    const admin = new Redis(url);
    const lines: string[] = [];
    try {
      await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
      await (await openRedis(configFor({ REDIS_URL: url }), (line) => lines.push(line))).close();
      expect(lines.join('\n')).toMatch(/maxmemory-policy is allkeys-lru; set it to noeviction/);
      lines.length = 0;
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await (await openRedis(configFor({ REDIS_URL: url }), (line) => lines.push(line))).close();
      expect(lines).toEqual([]);
    } finally {
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      admin.disconnect();
    }
  });

  it('starts a local redis-server with AOF and noeviction when REDIS_URL is unset', async () => {
    const port = 30_000 + Math.floor(Math.random() * 5_000);
    const lines: string[] = [];
    const redis = await openRedis(configFor({ REDIS_PORT: String(port) }), (line) => lines.push(line));
    const client = new Redis(redis.url);
    try {
      expect(lines[0]).toMatch(`local redis-server started on port ${port}`);
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await client.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
    } finally {
      client.disconnect();
      await redis.close();
    }
  });
});
