import { timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Db, Environment, Service } from '@platform/db';
import { ApiError } from '@platform/http';
import { hashKey, parseKey } from './key-format.js';
import type { KeyOwner } from './key-owner.js';

export interface AuthContext {
  keyId: string;
  applicationId: string;
  accountId: string;
  scopes: ReadonlySet<string>;
  /** The application's own budget (requests per minute, shared by all its keys); null: the deployment's default. */
  rateLimitPerMinute: number | null;
}

interface CachedKey {
  id: string;
  hash: string;
  applicationId: string;
  accountId: string;
  service: Service;
  environment: Environment;
  scopes: ReadonlySet<string>;
  revoked: boolean;
  /** Epoch ms from which the key is refused; null: no expiry. */
  expiresAt: number | null;
  rateLimitPerMinute: number | null;
}

export interface VerifierOptions {
  db: Pick<Db, 'apiKey'>;
  /** The service whose keys are accepted. */
  service: Pick<KeyOwner, 'id' | 'keyPrefix' | 'names'>;
  /** The deployment's other services, so that a key of one of them is named in the message. */
  neighbours?: readonly Pick<KeyOwner, 'keyPrefix' | 'names'>[];
  environment: Environment;
  pepper: string;
  now?: () => number;
  /** How long a looked-up key is trusted; bounds how late a revocation or a roll's new expiry on another instance takes effect. */
  cacheTtlMs?: number;
  /** `last_used_at` is written at most once per interval per key. */
  lastUsedIntervalMs?: number;
  /** Known keys kept (least recently used go first); default 10,000. */
  cacheSize?: number;
  /** Unknown keys remembered, in a room of their own so that a flood of them never evicts a real key; default 1,000. */
  missCacheSize?: number;
  /** Told of every lookup: answered from the cache (`hit`) or by the database (`miss`); for metrics. */
  onLookup?: (result: 'hit' | 'miss') => void;
}

const ENVIRONMENT_DE: Record<string, string> = { production: 'Produktions', sandbox: 'Sandbox' };

/** Verifies `apikey` headers: format and checksum first, then a cached lookup by hash. */
export class KeyVerifier {
  private readonly cache: LRUCache<string, { key: CachedKey; expiresAt: number }>;
  private readonly misses: LRUCache<string, { expiresAt: number }>;
  private readonly lastUsedWritten = new Map<string, number>();
  private readonly now: () => number;
  private readonly cacheTtlMs: number;
  private readonly lastUsedIntervalMs: number;

  constructor(private readonly options: VerifierOptions) {
    this.now = options.now ?? Date.now;
    this.cacheTtlMs = options.cacheTtlMs ?? 4_000;
    this.lastUsedIntervalMs = options.lastUsedIntervalMs ?? 60_000;
    // Expiry is checked against the injected clock; the caches only bound the memory.
    this.cache = new LRUCache({ max: options.cacheSize ?? 10_000 });
    this.misses = new LRUCache({ max: options.missCacheSize ?? 1_000 });
  }

  async verify(header: string | string[] | undefined): Promise<AuthContext> {
    return this.check(header);
  }

  /**
   * What `verify` answers, at once when the key's lookup is cached and nothing is to be written
   * (most requests), else as a promise; a refused key throws at once or rejects. For the request
   * hook, which then needs no promise of its own.
   */
  check(header: string | string[] | undefined): AuthContext | Promise<AuthContext> {
    if (header === undefined || header === '') throw new ApiError('api_key_missing');
    if (Array.isArray(header)) throw invalid('Send exactly one apikey header.', 'Genau einen Header apikey senden.');
    const parsed = parseKey(header);
    if (!parsed) throw invalid('The API key is malformed.', 'Der API-Schlüssel ist nicht richtig aufgebaut.');
    const own = this.options.service;
    if (parsed.prefix !== own.keyPrefix) {
      const owner = this.options.neighbours?.find((service) => service.keyPrefix === parsed.prefix);
      throw invalid(
        `This API key belongs to ${owner ? `the ${owner.names.en}` : 'another service'}, not the ${own.names.en}.`,
        `Dieser API-Schlüssel gehört ${owner ? `zum ${owner.names.de}` : 'zu einem anderen Dienst'}, nicht zum ${own.names.de}.`,
      );
    }
    if (parsed.environment !== this.options.environment) {
      throw invalid(
        `This is a ${parsed.environment} key; this is the ${this.options.environment} environment.`,
        `Dies ist ein ${ENVIRONMENT_DE[parsed.environment]}-Schlüssel; dies ist die ${ENVIRONMENT_DE[this.options.environment]}-Umgebung.`,
      );
    }
    const hash = hashKey(header, this.options.pepper);
    const now = this.now();
    const cached = this.cached(hash, now);
    if (cached === undefined) return this.fetch(hash, now).then((key) => this.accept(key, hash, now));
    return this.accept(cached, hash, now);
  }

  /** The key's context, once it is known; writes `last_used_at` when due. */
  private accept(key: CachedKey | null, hash: string, now: number): AuthContext | Promise<AuthContext> {
    if (!key || !timingSafeEqual(Buffer.from(key.hash), Buffer.from(hash)))
      throw invalid('The API key is not known.', 'Der API-Schlüssel ist unbekannt.');
    if (key.revoked) throw invalid('The API key was revoked.', 'Der API-Schlüssel wurde widerrufen.');
    // Checked on every request, cached or not: a known expiry takes effect to the millisecond.
    if (key.expiresAt !== null && key.expiresAt <= now) {
      const at = new Date(key.expiresAt).toISOString();
      throw invalid(`The API key expired at ${at}.`, `Der API-Schlüssel ist seit ${at} abgelaufen.`);
    }
    const written = this.touch(key.id);
    return written ? written.then(() => contextOf(key)) : contextOf(key);
  }

  /** Drops a key from this instance's cache at once (used after a revocation here). */
  forget(keyId: string): void {
    for (const [hash, entry] of this.cache.entries()) if (entry.key.id === keyId) this.cache.delete(hash);
  }

  /** The cached answer of the lookup: the key, null for a key known not to exist, undefined when the database is to be asked. */
  private cached(hash: string, now: number): CachedKey | null | undefined {
    // A hash is never in both caches while its entry in `cache` is current (caching a key drops
    // its miss; a miss is recorded only when the database was asked, i.e. the entry was stale).
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) {
      this.options.onLookup?.('hit');
      return cached.key;
    }
    const missed = this.misses.get(hash);
    if (missed && missed.expiresAt > now) {
      this.options.onLookup?.('hit');
      return null;
    }
    return undefined;
  }

  private async fetch(hash: string, now: number): Promise<CachedKey | null> {
    this.options.onLookup?.('miss');
    const row = await this.options.db.apiKey.findUnique({
      where: { key_hash: hash },
      include: { application: { select: { account_id: true, service: true, rate_limit_per_minute: true } } },
    });
    const key: CachedKey | null =
      row && row.application.service === this.options.service.id && row.environment === this.options.environment
        ? {
            id: row.id,
            hash: row.key_hash,
            applicationId: row.application_id,
            accountId: row.application.account_id,
            service: row.application.service,
            environment: row.environment,
            scopes: new Set(row.scopes),
            revoked: row.revoked_at !== null,
            expiresAt: row.expires_at?.getTime() ?? null,
            rateLimitPerMinute: row.application.rate_limit_per_minute,
          }
        : null;
    if (key) {
      this.cache.set(hash, { key, expiresAt: now + this.cacheTtlMs });
      this.misses.delete(hash);
    } else {
      this.misses.set(hash, { expiresAt: now + this.cacheTtlMs });
    }
    if (row && !this.lastUsedWritten.has(row.id) && row.last_used_at) {
      this.lastUsedWritten.set(row.id, row.last_used_at.getTime());
    }
    return key;
  }

  /** Records use at most once per interval; the condition keeps other instances from writing too. Nothing to write: undefined. */
  private touch(keyId: string): Promise<void> | undefined {
    const now = this.now();
    const last = this.lastUsedWritten.get(keyId);
    if (last !== undefined && now - last < this.lastUsedIntervalMs) return undefined;
    this.lastUsedWritten.set(keyId, now);
    const threshold = new Date(now - this.lastUsedIntervalMs);
    return this.options.db.apiKey
      .updateMany({
        where: { id: keyId, OR: [{ last_used_at: null }, { last_used_at: { lte: threshold } }] },
        data: { last_used_at: new Date(now) },
      })
      .then(() => undefined);
  }
}

function contextOf(key: CachedKey): AuthContext {
  return {
    keyId: key.id,
    applicationId: key.applicationId,
    accountId: key.accountId,
    scopes: key.scopes,
    rateLimitPerMinute: key.rateLimitPerMinute,
  };
}

function invalid(message: string, messageDe: string): ApiError {
  return new ApiError('api_key_invalid', { message, messageDe });
}
