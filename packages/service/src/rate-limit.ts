import fastifyRateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { ApiError, type Dialect } from '@platform/http';

/** Per-key request budgets, shared by every instance through Redis. */
export interface RateLimitSettings {
  /** A connection of its own (offline queue off, short timeouts): a Redis outage must not hold requests. */
  redis: Redis;
  /** Requests per minute per key unless the key's application has its own budget. */
  perMinute: number;
  /** Told when Redis cannot be reached (requests then pass unlimited); at most once a minute. */
  warn?: (message: string) => void;
  /** Prefix of the counters' Redis keys (tests isolate themselves with one); default `ratelimit:`. */
  prefix?: string;
}

export interface RateLimitPluginOptions extends RateLimitSettings {
  dialect: Dialect;
}

/** A fixed window: the counter's key is created with this expiry and counts until it is gone. */
export const RATE_LIMIT_WINDOW_MS = 60_000;
export const DEFAULT_RATE_LIMIT_PREFIX = 'ratelimit:';

// One warning per connection and window, however many contexts (`/v1`, `/leads/v1`) share it.
const lastWarnedAt = new WeakMap<Redis, number>();

function warnOncePerWindow(settings: RateLimitSettings, error: unknown): void {
  const now = Date.now();
  if (now - (lastWarnedAt.get(settings.redis) ?? -Infinity) < RATE_LIMIT_WINDOW_MS) return;
  lastWarnedAt.set(settings.redis, now);
  const reason = error instanceof Error ? error.message : String(error);
  settings.warn?.(`Rate limits are not applied: Redis is unreachable (${reason}). Requests pass without a limit.`);
}

/**
 * Limits the requests of each key in the authenticated context it is registered in (after auth):
 * `RateLimit-*` headers on every answer, 429 `rate_limited` with `Retry-After` over budget. The
 * counting is @fastify/rate-limit's Redis store; the answers are ours, so that the 429 has the
 * error shape of the context's dialect and a Redis outage lets requests pass without headers.
 */
export const rateLimits = fp<RateLimitPluginOptions>(
  async (app, settings) => {
    await app.register(fastifyRateLimit, {
      global: false, // no hooks of its own: the one below decides
      redis: settings.redis,
      nameSpace: settings.prefix ?? DEFAULT_RATE_LIMIT_PREFIX,
      timeWindow: RATE_LIMIT_WINDOW_MS,
      max: (request) => request.auth.rateLimitPerMinute ?? settings.perMinute,
      keyGenerator: (request) => request.auth.keyId,
      skipOnError: false, // store errors reach us: we warn and let the request pass
    });
    const count = app.createRateLimit();
    // Registered after the auth plugin in the same context, so this runs after the key check.
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config.public || !request.auth) return;
      let limit;
      try {
        limit = await count(request);
      } catch (error) {
        warnOncePerWindow(settings, error);
        return;
      }
      if (limit.isAllowed) return;
      // A counter always has its expiry (set with its creation); a negative TTL would mean it is gone.
      const reset = limit.ttl > 0 ? limit.ttlInSeconds : Math.ceil(limit.timeWindow / 1000);
      reply.header('ratelimit-limit', limit.max);
      reply.header('ratelimit-remaining', limit.remaining);
      reply.header('ratelimit-reset', reset);
      if (limit.isExceeded) {
        throw new ApiError('rate_limited', {
          message: `Too many requests: this key may make ${limit.max} requests per minute; retry in ${reset} s.`,
          messageDe: `Zu viele Anfragen: dieser Schlüssel darf ${limit.max} Anfragen pro Minute stellen; wieder möglich in ${reset} s.`,
          headers: { 'retry-after': String(reset) },
        });
      }
    });
  },
  { name: 'platform-rate-limits', dependencies: ['platform-auth'] },
);
