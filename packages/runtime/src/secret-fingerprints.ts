// The secrets every instance must share are compared at start with what the database was first
// started with: an instance with another API_KEY_PEPPER would answer 401 to every key the others
// issued, one with another WEBHOOK_SECRET_KEY could not decrypt the stored signing secrets.
import { createHmac } from 'node:crypto';
import type { Db } from '@platform/db';
import type { Config } from './config.js';
import { deleteFingerprint, recordAndReadFingerprints, type RecordedFingerprint } from './secret-fingerprints-sql.js';

/** A secret that signs or encrypts stored data, by the variable that sets it. */
export interface SharedSecret {
  name: SharedSecretName;
  value: string;
}

/** What stops working when an instance runs with another value. */
const CONSEQUENCES = {
  API_KEY_PEPPER: 'keys issued with the other cannot be verified, nor its list cursors',
  WEBHOOK_SECRET_KEY: 'webhook signing secrets stored with the other cannot be decrypted',
} as const;

export type SharedSecretName = keyof typeof CONSEQUENCES;

export const SHARED_SECRET_NAMES = Object.keys(CONSEQUENCES) as SharedSecretName[];

/** The secrets of a configuration that every instance on one database must share. */
export function sharedSecretsOf(config: Pick<Config, 'apiKeyPepper' | 'webhookSecretKey'>): SharedSecret[] {
  return [
    { name: 'API_KEY_PEPPER', value: config.apiKeyPepper },
    { name: 'WEBHOOK_SECRET_KEY', value: config.webhookSecretKey },
  ];
}

/**
 * What is stored instead of the secret. The secrets are random and long (≥ 32 characters, 64 hex),
 * so an HMAC keyed with the secret reveals nothing and cannot be guessed offline; a label of its own
 * keeps it apart from every other use of the secret (key hashes, cursor signatures).
 */
export function fingerprintOf(secret: string): string {
  return createHmac('sha256', secret).update('platform secret fingerprint v1').digest('hex');
}

/** One line per secret whose value differs from the recorded one. */
export class SecretMismatchError extends Error {
  constructor(readonly mismatches: readonly RecordedFingerprint[]) {
    super(mismatches.map(mismatchLine).join('\n'));
  }
}

function mismatchLine(recorded: RecordedFingerprint): string {
  const name = recorded.name as SharedSecretName;
  const day = recorded.recorded_at.toISOString().slice(0, 10);
  return (
    `${name} differs from the one this database was initialised with (fingerprint recorded ${day}): ` +
    `every instance must use the same value; ${CONSEQUENCES[name]}. ` +
    `After a deliberate change, run \`pnpm cli secrets forget ${name}\` once.`
  );
}

/**
 * Records the fingerprints of `secrets` where none is recorded yet (the first process to start, or
 * a database from before fingerprints), then compares: a difference throws SecretMismatchError.
 */
export async function checkSharedSecrets(db: Db, secrets: readonly SharedSecret[]): Promise<void> {
  const mine = new Map(secrets.map((s) => [s.name as string, fingerprintOf(s.value)]));
  const recorded = await recordAndReadFingerprints(
    db,
    [...mine].map(([name, fingerprint]) => ({ name, fingerprint })),
  );
  const mismatches = recorded
    .filter((row) => row.fingerprint !== mine.get(row.name))
    .sort((a, b) => a.name.localeCompare(b.name));
  if (mismatches.length > 0) throw new SecretMismatchError(mismatches);
}

/** `checkSharedSecrets`, or the mismatch on stderr (no stack, no secret), `close()` and exit code 1. */
export async function checkSharedSecretsOrExit(
  db: Db,
  secrets: readonly SharedSecret[],
  close: () => Promise<void>,
): Promise<void> {
  try {
    await checkSharedSecrets(db, secrets);
  } catch (error) {
    if (!(error instanceof SecretMismatchError)) throw error;
    console.error(error.message);
    await close();
    process.exit(1);
  }
}

/** Forgets the recorded fingerprint of `name` (after a deliberate change); false when none was recorded. */
export async function forgetSecretFingerprint(
  db: Db,
  name: SharedSecretName,
): Promise<{ forgotten: boolean; recordedAt?: Date }> {
  const row = await deleteFingerprint(db, name);
  return row ? { forgotten: true, recordedAt: row.recorded_at } : { forgotten: false };
}
