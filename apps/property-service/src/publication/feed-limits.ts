import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '@platform/http';
import { RATE_LIMIT_WINDOW_MS, RateLimitCounter, type RateLimitSettings } from '@platform/service';

/** Requests per minute to one feed token unless configured (`FEED_RATE_LIMIT_PER_TOKEN`). */
export const FEED_RATE_LIMIT_PER_TOKEN = 600;
/**
 * Requests per minute from one client address unless configured (`FEED_RATE_LIMIT_PER_ADDRESS`):
 * more than one token's, since a portal reads the feeds of many agencies from the same addresses.
 */
export const FEED_RATE_LIMIT_PER_ADDRESS = 1200;

/** Budgets of the public feeds, shared by every instance through Redis (fixed windows of a minute). */
export interface FeedRateLimits {
  /** The limiter's own connection (no offline queue, short timeouts): while Redis is away, feeds are answered unlimited. */
  redis: RateLimitSettings['redis'];
  /** Requests per minute to one feed token, from any address. */
  perToken: number;
  /** Requests per minute from one client address (`request.ip`, so behind the trusted proxy's `X-Forwarded-For`), to any feed. */
  perAddress: number;
  /** Prefix of the counters' Redis keys. */
  prefix: string;
  /** Told when Redis cannot be reached; at most once a minute. */
  warn?: (message: string) => void;
}

/** A token that can be one (any other is answered 404 without counting it against a token's budget). */
const TOKEN = /^[A-Za-z0-9_-]{20,64}$/;

/** The token's budget is kept under a digest of it: the secret itself never becomes a Redis key. */
const tokenBudget = (token: string) => `token:${createHash('sha256').update(token).digest('base64url').slice(0, 32)}`;

/**
 * Limits the public feed routes of the context it is registered in: first per client address,
 * then per token; over either budget 429 `rate_limited` with `Retry-After`, before the database is
 * asked. While Redis is away requests pass (one warning a minute), as the per-key limits do.
 */
export function limitFeeds(app: FastifyInstance, limits: FeedRateLimits): void {
  let lastWarnedAt = -Infinity;
  const counter = new RateLimitCounter(limits.redis, limits.prefix, (error) => warn(error));
  function warn(error: unknown): void {
    const now = Date.now();
    if (now - lastWarnedAt < RATE_LIMIT_WINDOW_MS) return;
    lastWarnedAt = now;
    const reason = error instanceof Error ? error.message : String(error);
    limits.warn?.(
      `Feed rate limits are not applied: Redis is unreachable (${reason}). Feed requests pass without a limit.`,
    );
  }

  async function spend(budget: string, max: number, what: string): Promise<void> {
    let count: number;
    let resetMs: number;
    try {
      ({ count, resetMs } = await counter.count(budget, max));
    } catch (error) {
      warn(error);
      return;
    }
    if (count <= max) return;
    const reset = Math.max(1, Math.ceil(resetMs / 1000));
    throw new ApiError('rate_limited', {
      message: `Too many requests: ${what} may make ${max} requests per minute; retry in ${reset} s.`,
      headers: { 'retry-after': String(reset) },
    });
  }

  app.addHook('onClose', () => counter.close());
  app.addHook('onRequest', async (request: FastifyRequest) => {
    await spend(`address:${request.ip}`, limits.perAddress, 'one address');
    const token = (request.params as { feedToken?: unknown } | undefined)?.feedToken;
    if (typeof token === 'string' && TOKEN.test(token)) await spend(tokenBudget(token), limits.perToken, 'one feed');
  });
}
