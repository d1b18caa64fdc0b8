import { describe, expect, it } from 'vitest';
import { ENTRY_OVERHEAD_BYTES, FeedCache, type CachedFeed } from '../src/publication/feed-cache.js';

const feed = (bytes: number, tag = 'x'): CachedFeed => ({
  body: Buffer.alloc(bytes, tag),
  etag: '"e"',
  contentType: 'application/json',
});
/** What an entry of `bytes` with a one-character key costs in the budget. */
const cost = (bytes: number) => bytes + 1 + 3 + ENTRY_OVERHEAD_BYTES;

function cache(maxBytes: number, ttlMs = 30_000) {
  const clock = { now: 0 };
  return { clock, cache: new FeedCache({ maxBytes, ttlMs, now: () => clock.now }) };
}

describe('the feed cache', () => {
  it('answers an entry while it is fresh and counts its bytes', () => {
    const { cache: c } = cache(10_000);
    c.set('a', feed(100));
    expect(c.get('a')?.body.length).toBe(100);
    expect(c.bytes).toBe(cost(100));
    expect(c.get('b')).toBeUndefined();
  });

  it('never holds more bytes than its budget: the least recently used entries go first', () => {
    const { cache: c } = cache(3 * cost(1000));
    c.set('a', feed(1000));
    c.set('b', feed(1000));
    c.set('c', feed(1000));
    expect(c.get('a')).toBeDefined(); // now b is the least recently used
    c.set('d', feed(1000));
    expect(c.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => c.get(key) !== undefined)).toEqual([true, true, true]);
    expect(c.bytes).toBe(3 * cost(1000));
    // One large entry pushes out as many as it needs, oldest use first (a, then c; d stays).
    c.set('e', feed(2000));
    expect(c.bytes).toBe(cost(1000) + cost(2000));
    expect(['a', 'c', 'd', 'e'].map((key) => c.get(key) !== undefined)).toEqual([false, false, true, true]);
  });

  it('keeps nothing larger than the whole budget, and evicts nothing for it', () => {
    const { cache: c } = cache(cost(1000));
    c.set('a', feed(1000));
    c.set('b', feed(1001));
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBeDefined();
  });

  it('replaces an entry of the same key without counting it twice', () => {
    const { cache: c } = cache(10_000);
    c.set('a', feed(100));
    c.set('a', feed(200, 'y'));
    expect(c.size).toBe(1);
    expect(c.bytes).toBe(cost(200));
    expect(c.get('a')?.body.toString()).toBe('y'.repeat(200));
  });

  it('removes an expired entry when it is asked for', () => {
    const { cache: c, clock } = cache(10_000, 1000);
    c.set('a', feed(100));
    clock.now = 999;
    expect(c.get('a')).toBeDefined();
    clock.now = 1000;
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
    expect(c.bytes).toBe(0);
  });

  it('sweeps every expired entry out when another is added, even ones nobody asks for again', () => {
    const { cache: c, clock } = cache(1_000_000, 1000);
    for (let i = 0; i < 20; i++) c.set(`k${i}`, feed(100));
    clock.now = 500;
    c.set('fresh', feed(100));
    expect(c.size).toBe(21);
    clock.now = 1200; // the first twenty expired; `fresh` lives until 1500
    c.set('new', feed(100));
    expect(c.size).toBe(2);
    expect(c.bytes).toBe(
      100 + 'fresh'.length + 3 + ENTRY_OVERHEAD_BYTES + (100 + 'new'.length + 3 + ENTRY_OVERHEAD_BYTES),
    );
    expect(c.get('fresh')).toBeDefined();
    expect(c.get('new')).toBeDefined();
  });
});
