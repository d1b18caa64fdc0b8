import { randomBytes } from 'node:crypto';
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
