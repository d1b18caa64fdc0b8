import type { Db, Environment } from '@platform/db';
import { advisoryXactLock, inTransaction, newId } from '@platform/db';
import { generateKey, hashKey } from './key-format.js';
import type { KeyOwner } from './key-owner.js';
import { activeKeys, KeyLimitError, toApiKeyView, type ApiKeyView } from './keys-service.js';

/** The longest a rolled key may keep working next to its successor: 7 days. */
export const MAX_ROLL_EXPIRY_HOURS = 168;

/** The key cannot be rolled: it no longer authenticates (revoked or expired). */
export class KeyNotRollableError extends Error {
  constructor(
    readonly keyId: string,
    readonly state: 'revoked' | 'expired',
    readonly at: Date,
  ) {
    super(`API key ${keyId} was ${state} at ${at.toISOString()}; create a new key instead of rolling it.`);
  }
}

export interface RolledKey {
  /** The successor, with the plaintext shown only here. */
  key: ApiKeyView;
  plaintext: string;
  /** The rolled key, with its `expires_at`. */
  previous: ApiKeyView;
}

/**
 * Rolls a key: creates its successor (same application, environment and scopes, valid at once)
 * and gives the old key an expiry `expiresInHours` from now (0: at once; at most 168). An expiry
 * the key already had and that comes sooner is kept. Null when the application has no such key.
 * The rolled key does not count against the application's key limit (it is on its way out), so
 * a roll succeeds at the limit; concurrent rolls and creations queue on the application's lock.
 */
export async function rollApiKey(
  db: Db,
  input: {
    keyId: string;
    /** Only a key of this application (the self-service route); none: any key (the operator's CLI). */
    applicationId?: string;
    service: Pick<KeyOwner, 'keyPrefix'>;
    environment: Environment;
    pepper: string;
    expiresInHours: number;
    maxKeys: number;
    now?: Date;
  },
): Promise<RolledKey | null> {
  if (
    !Number.isInteger(input.expiresInHours) ||
    input.expiresInHours < 0 ||
    input.expiresInHours > MAX_ROLL_EXPIRY_HOURS
  )
    throw new RangeError(`expiresInHours must be a whole number from 0 to ${MAX_ROLL_EXPIRY_HOURS}.`);
  const now = input.now ?? new Date();
  const old = await db.apiKey.findFirst({
    where: { id: input.keyId, ...(input.applicationId ? { application_id: input.applicationId } : {}) },
    select: { application_id: true },
  });
  if (!old) return null;
  const { plaintext, displayPrefix } = generateKey(input.service.keyPrefix, input.environment);
  return inTransaction(db, async (tx) => {
    await advisoryXactLock(tx, `api-keys:${old.application_id}`);
    const key = await tx.apiKey.findUniqueOrThrow({ where: { id: input.keyId } });
    if (key.revoked_at) throw new KeyNotRollableError(key.id, 'revoked', key.revoked_at);
    if (key.expires_at && key.expires_at <= now) throw new KeyNotRollableError(key.id, 'expired', key.expires_at);
    const others = await tx.apiKey.count({
      where: { application_id: key.application_id, id: { not: key.id }, ...activeKeys(now) },
    });
    if (others >= input.maxKeys) throw new KeyLimitError(input.maxKeys, others + 1);
    const successor = await tx.apiKey.create({
      data: {
        id: newId('key'),
        application_id: key.application_id,
        environment: input.environment,
        key_hash: hashKey(plaintext, input.pepper),
        display_prefix: displayPrefix,
        scopes: key.scopes,
        created_at: now,
      },
    });
    const requested = new Date(now.getTime() + input.expiresInHours * 3_600_000);
    const expiresAt = key.expires_at && key.expires_at < requested ? key.expires_at : requested;
    const previous = await tx.apiKey.update({
      where: { id: key.id },
      data: { expires_at: expiresAt, rolled_into_id: successor.id },
    });
    return { key: toApiKeyView(successor, now), plaintext, previous: toApiKeyView(previous, now) };
  });
}
