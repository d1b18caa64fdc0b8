import type { BlobStorage } from '@platform/storage';
import { advisoryXactLock, type Db } from '@platform/db';

/**
 * The tables whose rows reference a stored blob: by convention every table with a `sha256` column
 * (the content address), found in the catalogue so that this package names no app's table.
 * Storage is shared and content-addressed, so a blob is removed only when no row of any uses it.
 */
export function blobTables(db: Db): Promise<string[]> {
  // The tables change only with a migration: looked up once per process, not per release.
  known ??= findBlobTables(db).catch((error: unknown) => {
    known = undefined;
    throw error;
  });
  return known;
}

let known: Promise<string[]> | undefined;

/** Forgets the looked-up tables (after a migration in the same process, e.g. in a test). */
export function forgetBlobTables(): void {
  known = undefined;
}

async function findBlobTables(db: Db): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ name: string }[]>(
    "SELECT table_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'sha256' ORDER BY 1",
  );
  return rows.map((row) => row.name).filter((name) => /^[a-z_][a-z0-9_]*$/.test(name));
}

/** Serialises the claim and the release of one content address (transaction-scoped advisory lock). */
function lockContent(tx: Db, key: string): Promise<void> {
  return advisoryXactLock(tx, `blob:${key}`);
}

/** Whether any row of any table references the content. */
export async function blobInUse(db: Db, key: string): Promise<boolean> {
  const tables = await blobTables(db);
  if (tables.length === 0) return false;
  const union = tables.map((table) => `SELECT 1 FROM "${table}" WHERE sha256 = $1`).join(' UNION ALL ');
  const rows = await db.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM (${union}) refs LIMIT 1`, key);
  return rows.length > 0;
}

/**
 * Inside the transaction that inserts a row referencing `key`: waits for a concurrent release of
 * the same content and makes sure the blob is still there (it was stored before the transaction).
 */
export async function claimBlob(tx: Db, storage: BlobStorage, key: string): Promise<void> {
  await lockContent(tx, key);
  if (!(await storage.exists(key))) throw new BlobVanishedError(key);
}

/**
 * Inside the transaction that deleted a row referencing `key` (or after a failed upload): removes
 * the blob unless another row still uses it. The content lock keeps a concurrent upload of the
 * same bytes from inserting its row between the check and the removal.
 */
export async function releaseBlob(tx: Db, storage: BlobStorage, key: string): Promise<boolean> {
  await lockContent(tx, key);
  if (await blobInUse(tx, key)) return false;
  await storage.delete(key);
  return true;
}

/** Every stored record's content address and size, for `storage check`. */
export async function blobRecords(db: Db): Promise<{ table: string; id: string; key: string; size: number }[]> {
  const rows: { table: string; id: string; key: string; size: number }[] = [];
  for (const table of await blobTables(db)) {
    const found = await db.$queryRawUnsafe<{ id: string; key: string; size: bigint | number }[]>(
      `SELECT id, sha256 AS key, size FROM "${table}" WHERE sha256 IS NOT NULL ORDER BY id`,
    );
    rows.push(...found.map((row) => ({ table, id: row.id, key: row.key, size: Number(row.size) })));
  }
  return rows;
}

export class BlobVanishedError extends Error {
  constructor(readonly key: string) {
    super(`The blob ${key} was removed while the upload was being recorded.`);
  }
}
