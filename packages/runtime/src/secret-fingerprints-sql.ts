import type { Db } from '@platform/db';

export interface RecordedFingerprint {
  name: string;
  fingerprint: string;
  recorded_at: Date;
}

/**
 * Records the fingerprints not recorded yet and returns what is recorded for these names. A
 * second process inserting the same name at once waits for the first one's row and keeps it
 * (ON CONFLICT DO NOTHING); the SELECT, a statement of its own, then sees the committed row.
 */
export async function recordAndReadFingerprints(
  db: Db,
  fingerprints: readonly { name: string; fingerprint: string }[],
): Promise<RecordedFingerprint[]> {
  const names = fingerprints.map((f) => f.name);
  await db.$executeRawUnsafe(
    `INSERT INTO secret_fingerprints (name, fingerprint)
     SELECT * FROM unnest($1::varchar[], $2::varchar[])
     ON CONFLICT (name) DO NOTHING`,
    names,
    fingerprints.map((f) => f.fingerprint),
  );
  return db.$queryRawUnsafe<RecordedFingerprint[]>(
    'SELECT name, fingerprint, recorded_at FROM secret_fingerprints WHERE name = ANY($1::varchar[])',
    names,
  );
}

/** Deletes the recorded fingerprint of `name`; the next start records the secret it runs with. */
export async function deleteFingerprint(db: Db, name: string): Promise<RecordedFingerprint | undefined> {
  const [row] = await db.$queryRawUnsafe<RecordedFingerprint[]>(
    'DELETE FROM secret_fingerprints WHERE name = $1 RETURNING name, fingerprint, recorded_at',
    name,
  );
  return row;
}
