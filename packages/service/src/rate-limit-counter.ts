import type { Redis } from 'ioredis';

/** A fixed window: the counter's key is created with this expiry and counts until it is gone. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** How often requests counted locally are added to the shared counter. */
const FLUSH_INTERVAL_MS = 100;
/** Requests are counted locally only while more than this many (and more than half the budget) remain. */
const LOCAL_HEADROOM = 50;

// INCRBY, the expiry set when the counter is new (or has none), and the counter's time left.
const COUNT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {count, ttl}`;

export interface Budget {
  max: number;
  /** Requests of the window, this one included (as far as this instance knows). */
  count: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
}

interface BudgetState {
  /** The shared counter as of the last answer from Redis. */
  known: number;
  /** Requests counted here and not yet added to the shared counter. */
  pending: number;
  windowEndsAt: number;
}

/**
 * Request counters, one per budget (the rate limit counts an application's requests, whichever of
 * its keys sends them), shared by every instance through Redis. Far from the budget, a request
 * is counted locally and the counts are added to Redis every 100 ms (one round trip per budget and
 * interval instead of one per request); within half the budget (or 50 requests) of it, every request
 * asks Redis, so the limit itself is exact across instances. The price: instances together may
 * exceed a budget only when they spend more than half of it within one 100 ms interval.
 */
export class RateLimitCounter {
  private readonly states = new Map<string, BudgetState>();
  private timer: NodeJS.Timeout | undefined;
  private counted = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onFlushError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request against the budget `id` (an application's); rejects when Redis cannot be asked (the caller lets it pass). */
  async count(id: string, max: number): Promise<Budget> {
    const now = this.now();
    if (++this.counted % 1_000 === 0) this.forgetEnded(now);
    return this.countHere(id, max, now) ?? this.countShared(id, max, now);
  }

  /**
   * Counts one request when it is counted locally (far from the budget, see above) and returns its
   * budget at once; undefined when Redis is to be asked, then `count` counts it. Most requests are
   * counted here, without a promise.
   */
  countLocally(id: string, max: number): Budget | undefined {
    const now = this.now();
    const budget = this.countHere(id, max, now);
    if (budget && ++this.counted % 1_000 === 0) this.forgetEnded(now);
    return budget;
  }

  private countHere(id: string, max: number, now: number): Budget | undefined {
    const state = this.states.get(id);
    if (!state || state.windowEndsAt <= now) return undefined;
    const remaining = max - state.known - state.pending;
    if (!(remaining > LOCAL_HEADROOM && remaining > max / 2)) return undefined;
    state.pending++;
    this.scheduleFlush();
    return { max, count: state.known + state.pending, resetMs: state.windowEndsAt - now };
  }

  private async countShared(id: string, max: number, now: number): Promise<Budget> {
    let state = this.states.get(id);
    let carried = 0;
    if (state && state.windowEndsAt <= now) {
      carried = state.pending; // counted in the new window: a little early rather than not at all
      this.states.delete(id);
      state = undefined;
    }
    const add = carried + (state?.pending ?? 0) + 1;
    if (state) {
      // Known at once, not when Redis answers: requests arriving meanwhile must see this one.
      state.known += state.pending + 1;
      state.pending = 0;
    }
    const [count, ttl] = (await this.redis.eval(COUNT_SCRIPT, 1, this.prefix + id, add, RATE_LIMIT_WINDOW_MS)) as [
      number,
      number,
    ];
    const current = this.states.get(id);
    // Answers of concurrent requests may arrive out of order: the counter only grows.
    if (current) Object.assign(current, { known: Math.max(current.known, count), windowEndsAt: this.now() + ttl });
    else this.states.set(id, { known: count, pending: 0, windowEndsAt: this.now() + ttl });
    return { max, count, resetMs: ttl };
  }

  /** Drops the state of budgets whose window has ended and that have nothing left to add (callers come and go). */
  private forgetEnded(now: number): void {
    for (const [id, state] of this.states) if (state.windowEndsAt <= now && state.pending === 0) this.states.delete(id);
  }

  private scheduleFlush(): void {
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
  }

  /** Adds every budget's local count to its shared counter and learns the other instances' counts. */
  async flush(): Promise<void> {
    this.timer = undefined;
    const work: Promise<void>[] = [];
    for (const [id, state] of this.states) {
      if (state.pending === 0) continue;
      const add = state.pending;
      state.known += add; // still seen by this instance's requests while Redis answers
      state.pending = 0;
      work.push(
        (
          this.redis.eval(COUNT_SCRIPT, 1, this.prefix + id, add, RATE_LIMIT_WINDOW_MS) as Promise<[number, number]>
        ).then(
          ([count, ttl]) => {
            const current = this.states.get(id);
            if (current)
              Object.assign(current, { known: Math.max(current.known, count), windowEndsAt: this.now() + ttl });
          },
          (error: unknown) => {
            this.states.delete(id); // the next request asks Redis, and passes while it is away
            this.onFlushError(error);
          },
        ),
      );
    }
    await Promise.all(work);
  }

  /** Flushes what is pending (on close). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.flush().catch(() => {});
  }
}
