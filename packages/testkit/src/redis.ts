import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';

/** The run's Redis, with a key prefix of its own so that test files never see each other's queues. */
export function testRedis(): {
  url: string;
  connection: { host: string; port: number; password?: string; maxRetriesPerRequest: null };
  prefix: string;
} {
  const url = new URL(inject('redisUrl'));
  return {
    url: url.toString(),
    connection: {
      host: url.hostname,
      port: Number(url.port || 6379),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      maxRetriesPerRequest: null,
    },
    prefix: `test-${randomBytes(4).toString('hex')}`,
  };
}

/**
 * A rate-limiter connection as the services open it (no offline queue, short timeouts) to the run's
 * Redis, ready; with `port`, to that port of loopback instead (one where nothing listens: Redis is down).
 */
export async function limiterRedis(port?: number): Promise<Redis> {
  const { connection } = testRedis();
  const redis = new Redis({
    ...connection,
    ...(port ? { host: '127.0.0.1', port } : {}),
    enableOfflineQueue: false,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 1,
  });
  redis.on('error', () => {});
  if (!port) await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}
