import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Dialect } from '@platform/http';

/** Per-key request budgets, shared by every instance through Redis. */
export interface RateLimitSettings {
  /** A connection of its own (offline queue off, short timeouts): a Redis outage must not hold requests. */
  redis: Redis;
  /** Requests per minute per key unless the key's application has its own budget. */
  perMinute: number;
  /** Told when Redis cannot be reached (requests then pass unlimited). */
  warn?: (message: string) => void;
}

export interface RateLimitPluginOptions extends RateLimitSettings {
  dialect: Dialect;
}

/** Limits the requests of each key in the authenticated context it is registered in (after auth). */
export const rateLimits = fp<RateLimitPluginOptions>(async () => {}, { name: 'platform-rate-limits' });
