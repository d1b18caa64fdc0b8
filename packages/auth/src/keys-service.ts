import type { Db, Environment } from '@platform/db';
import { advisoryXactLock, inTransaction, newId } from '@platform/db';
import { generateKey, hashKey } from './key-format.js';
import { unknownScopes, type KeyOwner } from './key-owner.js';

export interface ApiKeyView {
  id: string;
  display_prefix: string;
  scopes: string[];
  created_at: string;
  /** Whole days since `created_at`. */
  age_days: number;
  last_used_at: string | null;
  revoked_at: string | null;
  /** From then on the key is refused like a revoked one (set by a roll, or at creation). */
  expires_at: string | null;
  /** The key that replaced this one in a roll. */
  rolled_into: string | null;
}

type KeyRow = {
  id: string;
  display_prefix: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  expires_at: Date | null;
  rolled_into_id: string | null;
};

const DAY_MS = 86_400_000;

/** The key as the API and the CLI show it; `now` decides its age. */
export function toApiKeyView(row: KeyRow, now: Date = new Date()): ApiKeyView {
  return {
    id: row.id,
    display_prefix: row.display_prefix,
    scopes: row.scopes,
    created_at: row.created_at.toISOString(),
    age_days: Math.max(0, Math.floor((now.getTime() - row.created_at.getTime()) / DAY_MS)),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
    rolled_into: row.rolled_into_id,
  };
}

/** Keys that still authenticate at `now`: not revoked, not expired (a Prisma filter). */
export const activeKeys = (now: Date) => ({
  revoked_at: null,
  OR: [{ expires_at: null }, { expires_at: { gt: now } }],
});

export class UnknownScopeError extends Error {
  constructor(
    readonly scopes: string[],
    service: KeyOwner['id'],
  ) {
    super(`Unknown scope(s) for the ${service} service: ${scopes.join(', ')}.`);
  }
}

/** Active keys an application may have unless the deployment says otherwise (API_KEYS_PER_APPLICATION). */
export const DEFAULT_KEYS_PER_APPLICATION = 20;

/** The application already has as many active keys as it may have; the caller words the refusal. */
export class KeyLimitError extends Error {
  constructor(
    readonly limit: number,
    readonly active: number,
  ) {
    super(
      `An application can have at most ${limit} active API keys, and this one has ${active}; revoke one before creating another.`,
    );
  }
}

/**
 * Creates a key for an application; the plaintext is returned here and never again.
 * Used by the self-service route and the operator CLI. The application may have at most
 * `maxKeys` active (neither revoked nor expired) keys: the rate limit is the application's, and the cap keeps
 * the number of credentials bounded; concurrent creations for one application queue on a lock,
 * so they cannot both pass it.
 */
export async function createApiKey(
  db: Db,
  input: {
    applicationId: string;
    service: Pick<KeyOwner, 'id' | 'keyPrefix' | 'scopes'>;
    environment: Environment;
    scopes: string[];
    pepper: string;
    /** Active keys the application may have (API_KEYS_PER_APPLICATION); default 20. */
    maxKeys?: number;
    /** When the key stops working; none: until revoked. */
    expiresAt?: Date;
    now?: Date;
  },
): Promise<{ key: ApiKeyView; plaintext: string }> {
  const now = input.now ?? new Date();
  const unknown = unknownScopes(input.service, input.scopes);
  if (unknown.length > 0) throw new UnknownScopeError(unknown, input.service.id);
  const maxKeys = input.maxKeys ?? DEFAULT_KEYS_PER_APPLICATION;
  const { plaintext, displayPrefix } = generateKey(input.service.keyPrefix, input.environment);
  const row = await inTransaction(db, async (tx) => {
    await advisoryXactLock(tx, `api-keys:${input.applicationId}`);
    const active = await tx.apiKey.count({ where: { application_id: input.applicationId, ...activeKeys(now) } });
    if (active >= maxKeys) throw new KeyLimitError(maxKeys, active);
    return tx.apiKey.create({
      data: {
        id: newId('key'),
        application_id: input.applicationId,
        environment: input.environment,
        key_hash: hashKey(plaintext, input.pepper),
        display_prefix: displayPrefix,
        scopes: [...new Set(input.scopes)],
        created_at: now,
        expires_at: input.expiresAt ?? null,
      },
    });
  });
  return { key: toApiKeyView(row, now), plaintext };
}

/** Revokes a key of the application; false when there is no such key. Revoking twice is harmless. */
export async function revokeApiKey(
  db: Pick<Db, 'apiKey'>,
  input: { id: string; applicationId?: string; now?: Date },
): Promise<boolean> {
  const where = { id: input.id, ...(input.applicationId ? { application_id: input.applicationId } : {}) };
  const key = await db.apiKey.findFirst({ where, select: { revoked_at: true } });
  if (!key) return false;
  if (!key.revoked_at)
    await db.apiKey.update({ where: { id: input.id }, data: { revoked_at: input.now ?? new Date() } });
  return true;
}
