import type { Db, Environment } from '@platform/db';
import { advisoryXactLock, inTransaction, newId } from '@platform/db';
import { generateKey, hashKey } from './key-format.js';
import { unknownScopes, type KeyOwner } from './key-owner.js';

export interface ApiKeyView {
  id: string;
  display_prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

type KeyRow = {
  id: string;
  display_prefix: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

export function toApiKeyView(row: KeyRow): ApiKeyView {
  return {
    id: row.id,
    display_prefix: row.display_prefix,
    scopes: row.scopes,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

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
 * `maxKeys` active (not revoked) keys: the rate limit is the application's, and the cap keeps
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
  },
): Promise<{ key: ApiKeyView; plaintext: string }> {
  const unknown = unknownScopes(input.service, input.scopes);
  if (unknown.length > 0) throw new UnknownScopeError(unknown, input.service.id);
  const maxKeys = input.maxKeys ?? DEFAULT_KEYS_PER_APPLICATION;
  const { plaintext, displayPrefix } = generateKey(input.service.keyPrefix, input.environment);
  const row = await inTransaction(db, async (tx) => {
    await advisoryXactLock(tx, `api-keys:${input.applicationId}`);
    const active = await tx.apiKey.count({ where: { application_id: input.applicationId, revoked_at: null } });
    if (active >= maxKeys) throw new KeyLimitError(maxKeys, active);
    return tx.apiKey.create({
      data: {
        id: newId('key'),
        application_id: input.applicationId,
        environment: input.environment,
        key_hash: hashKey(plaintext, input.pepper),
        display_prefix: displayPrefix,
        scopes: [...new Set(input.scopes)],
      },
    });
  });
  return { key: toApiKeyView(row), plaintext };
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
