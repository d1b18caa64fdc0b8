import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { redisWhere, type ResolvedRedis } from './redis.js';

/**
 * A connection of its own that only watches Redis, so that an outage is told once each way:
 * one line when the connection is lost (the APIs keep answering; events wait in the outbox) and
 * one when it is back (queued deliveries go on). Meanwhile the background workers' own connection
 * errors are the same fault: `isDown()` lets them stay quiet.
 */
export function watchRedis(connection: ResolvedRedis['connection'], logger: Pick<Logger, 'info' | 'warn'>) {
  const where = redisWhere(connection);
  let lostAt: number | undefined;
  let ready = false;
  let closing = false;
  const client = new Redis({
    ...connection,
    maxRetriesPerRequest: null,
    enableOfflineQueue: false,
    retryStrategy: () => 500,
  });
  client.on('ready', () => {
    ready = true;
    if (lostAt === undefined) return;
    logger.info(
      { down_s: Math.round((Date.now() - lostAt) / 100) / 10 },
      `Redis is back at ${where}: queued events and deliveries go on`,
    );
    lostAt = undefined;
  });
  // ioredis emits 'close' for its own disconnect too: the end of a shutdown is no lost connection.
  client.on('close', () => {
    if (closing || !ready || lostAt !== undefined) return;
    lostAt = Date.now();
    logger.warn(
      `lost the connection to Redis at ${where}: the APIs keep answering and new events wait in the outbox; retrying until it is back`,
    );
  });
  client.on('error', () => {}); // told once by 'close' above
  return {
    isDown: () => lostAt !== undefined,
    close: () => {
      closing = true;
      client.disconnect();
    },
  };
}
