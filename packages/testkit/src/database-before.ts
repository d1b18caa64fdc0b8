import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MIGRATIONS_DIR, readMigrations, runMigrations } from '@platform/db';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface DatabaseBefore {
  db: TestDatabase;
  /** Applies every migration before `migration`: the database as it was before that change. */
  migrateToBefore(): Promise<void>;
  /** Applies the rest; resolves to the names applied (`migration` first). */
  migrateRest(): Promise<string[]>;
  drop(): Promise<void>;
}

/** An empty test database for a data migration's test: brought to just before `migration`, filled, then migrated. */
export async function databaseBefore(migration: string): Promise<DatabaseBefore> {
  if (!readMigrations().some((m) => m.name === migration)) throw new Error(`No migration ${migration}`);
  const db = await createTestDatabase({ empty: true });
  const before = mkdtempSync(join(tmpdir(), 'migrations-'));
  for (const { name } of readMigrations().filter((m) => m.name < migration))
    cpSync(join(DEFAULT_MIGRATIONS_DIR, name), join(before, name), { recursive: true });
  return {
    db,
    migrateToBefore: async () => void (await runMigrations(db.url, before)),
    migrateRest: () => runMigrations(db.url),
    drop: async () => {
      rmSync(before, { recursive: true, force: true });
      await db.drop();
    },
  };
}
