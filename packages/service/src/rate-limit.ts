import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { ApiError, type Dialect } from '@platform/http';
import { RATE_LIMIT_WINDOW_MS, RateLimitCounter, type Budget } from './rate-limit-counter.js';

export { RATE_LIMIT_WINDOW_MS };

/** Request budgets per application (shared by all its keys), kept for every instance in Redis. */
export interface RateLimitSettings {
  /** A connection of its own (offline queue off, short timeouts): a Redis outage must not hold requests. */
  redis: Redis;
  /** Requests per minute per application unless the application has its own budget. */
  perMinute: number;
  /** Told when Redis cannot be reached (requests then pass unlimited); at most once a minute. */
  warn?: (message: string) => void;
  /** Prefix of the counters' Redis keys (tests isolate themselves with one); default `ratelimit:`. */
  prefix?: string;
}

export interface RateLimitPluginOptions extends RateLimitSettings {
  dialect: Dialect;
}

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

// One counter per connection and prefix, however many contexts (`/v1`, `/leads/v1`) share a budget.
const counters = new WeakMap<Redis, Map<string, RateLimitCounter>>();

function counterFor(settings: RateLimitSettings): RateLimitCounter {
  const prefix = settings.prefix ?? DEFAULT_RATE_LIMIT_PREFIX;
  let byPrefix = counters.get(settings.redis);
  if (!byPrefix) counters.set(settings.redis, (byPrefix = new Map()));
  let counter = byPrefix.get(prefix);
  if (!counter)
    byPrefix.set(
      prefix,
      (counter = new RateLimitCounter(settings.redis, prefix, (error) => warnOncePerWindow(settings, error))),
    );
  return counter;
}

/** Sets the `RateLimit-*` headers; the error to answer with when the budget is spent. */
function overBudget(reply: FastifyReply, { max, count, resetMs }: Budget): ApiError | undefined {
  const reset = Math.max(1, Math.ceil(resetMs / 1000));
  reply.header('ratelimit-limit', max);
  reply.header('ratelimit-remaining', Math.max(0, max - count));
  reply.header('ratelimit-reset', reset);
  if (count <= max) return undefined;
  return new ApiError('rate_limited', {
    message: `Too many requests: this application may make ${max} requests per minute (all its keys together); retry in ${reset} s.`,
    messageDe: `Zu viele Anfragen: diese Anwendung darf ${max} Anfragen pro Minute stellen (alle ihre Schlüssel zusammen); wieder möglich in ${reset} s.`,
    headers: { 'retry-after': String(reset) },
  });
}

/**
 * Limits the requests of each application in the authenticated context it is registered in (after
 * auth): one budget per application, whichever of its keys calls and whichever instance answers,
 * so that a tenant cannot multiply it by creating keys. `RateLimit-*` headers on every answer, 429
 * `rate_limited` with `Retry-After` over budget, in the error shape of the context's dialect.
 * Counted by RateLimitCounter (Redis, fixed windows); while Redis is away, requests pass without
 * headers and one warning a minute is logged.
 */
export const rateLimits = fp<RateLimitPluginOptions>(
  async (app, settings) => {
    const counter = counterFor(settings);
    app.addHook('onClose', () => counter.close());
    // Registered after the auth plugin in the same context, so this runs after the key check. A
    // plain hook calling `done`: most requests are counted locally, without a promise.
    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config.public || !request.auth) return done();
      const counted = count(request, reply);
      if (!('then' in counted)) return done(counted.refusal);
      counted.then(
        ({ refusal }) => done(refusal),
        (error: unknown) => done((error || new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()) as Error),
      );
    });
    // A key refused for its scope (403) never reaches the hook above: the auth plugin answers in
    // its own hook. It is still an authenticated request, so it is counted and gets the headers
    // (docs/conventions.md promises them on every authenticated answer); it stays a 403 even
    // over budget, since the answer is decided by then.
    app.addHook('onError', (request, reply, error, done) => {
      const refusedForScope = (error as { code?: unknown }).code === 'scope_missing';
      if (!refusedForScope || !request.auth || reply.hasHeader('ratelimit-limit')) return done();
      const counted = count(request, reply);
      if (!('then' in counted)) return done();
      counted.then(
        () => done(),
        () => done(),
      );
    });
    /** Counts the request against its application's budget and sets the headers; over budget, the refusal. */
    function count(
      request: FastifyRequest,
      reply: FastifyReply,
    ): { refusal?: ApiError } | Promise<{ refusal?: ApiError }> {
      const max = request.auth.rateLimitPerMinute ?? settings.perMinute;
      const budget = counter.countLocally(request.auth.applicationId, max);
      if (budget) return { refusal: overBudget(reply, budget) };
      return counter.count(request.auth.applicationId, max).then(
        (counted) => ({ refusal: overBudget(reply, counted) }),
        (error: unknown) => {
          warnOncePerWindow(settings, error);
          return {};
        },
      );
    }
  },
  { name: 'platform-rate-limits', dependencies: ['platform-auth'] },
);
