/** A built feed (or one listing of it) as it is answered. */
export interface CachedFeed {
  body: Buffer;
  etag: string;
  contentType: string;
}

interface Entry extends CachedFeed {
  bytes: number;
  expiresAt: number;
}

/** What an entry costs besides its body, key and ETag (the Map's slot, the object): many small ones count too. */
export const ENTRY_OVERHEAD_BYTES = 256;

export interface FeedCacheOptions {
  /** The most bytes the entries may hold together (bodies, keys and ETags, plus the overhead of each). */
  maxBytes: number;
  /** How long an entry is served after it was built. */
  ttlMs: number;
  /** The clock (injected: tests move it past the lifetime). */
  now: () => number;
}

/**
 * The built feeds of one process: bounded in bytes, the least recently used entry evicted first,
 * an expired entry removed when it is asked for, and every expired one swept out when an entry is
 * added (at most once per lifetime / 10, so that adding stays cheap with many entries).
 */
export class FeedCache {
  // A Map iterates in insertion order: an entry is moved to the end when used, so the first is the least recently used.
  private readonly entries = new Map<string, Entry>();
  private held = 0;
  private nextSweepAt = 0;

  constructor(private readonly options: FeedCacheOptions) {}

  /** Bytes the entries hold now. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry, if it is still fresh; an expired one is removed. */
  get(key: string): CachedFeed | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.options.now()) {
      this.remove(key, entry);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps the feed for the lifetime; one larger than the whole budget is not kept at all. */
  set(key: string, feed: CachedFeed): void {
    const now = this.options.now();
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    if (now >= this.nextSweepAt) this.sweep(now);
    const bytes = feed.body.byteLength + Buffer.byteLength(key) + Buffer.byteLength(feed.etag) + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.options.maxBytes) return;
    for (const [oldest, entry] of this.entries) {
      if (this.held + bytes <= this.options.maxBytes) break;
      this.remove(oldest, entry);
    }
    this.entries.set(key, { ...feed, bytes, expiresAt: now + this.options.ttlMs });
    this.held += bytes;
  }

  /** Removes every expired entry. */
  sweep(now = this.options.now()): void {
    this.nextSweepAt = now + Math.max(1, Math.floor(this.options.ttlMs / 10));
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.remove(key, entry);
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.held -= entry.bytes;
  }
}
