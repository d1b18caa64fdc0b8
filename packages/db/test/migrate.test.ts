import { cpSync, mkdtempSync, writeFileSync, appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATIONS_DIR, readMigrations, runMigrations } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';

/** A copy of the migrations folder in a temp dir of its own, removed after the file's tests. */
const copies: string[] = [];
afterAll(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function copyOfMigrations(): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  copies.push(dir);
  cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

describe('migration runner', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ empty: true });
  });
  afterAll(() => db.drop());

  it("applies every migration once and records it in Prisma's table format", async () => {
    const first = await runMigrations(db.url);
    expect(first).toEqual(readMigrations().map((m) => m.name));
    const rows = await db.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      applied_steps_count: number;
    }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(first);
    expect(
      rows.every((r) => r.finished_at !== null && r.applied_steps_count === 1 && /^[0-9a-f]{64}$/.test(r.checksum)),
    ).toBe(true);
  });

  it('is idempotent: a second run applies nothing', async () => {
    expect(await runMigrations(db.url)).toEqual([]);
    expect(await runMigrations(db.url)).toEqual([]);
  });

  it('runs concurrent runners one after the other without applying twice', async () => {
    const fresh = await createTestDatabase({ empty: true });
    const results = await Promise.all([runMigrations(fresh.url), runMigrations(fresh.url)]);
    expect(results.flat()).toEqual(readMigrations().map((m) => m.name));
    await fresh.drop();
  });

  it('refuses to continue when an applied migration was edited', async () => {
    const dir = copyOfMigrations();
    const [first] = readMigrations(dir);
    appendFileSync(join(dir, first.name, 'migration.sql'), '\n-- edited\n');
    await expect(runMigrations(db.url, dir)).rejects.toThrow(/modified after it was applied/);
  });

  it('rolls back a failing migration and applies nothing of it', async () => {
    const dir = copyOfMigrations();
    mkdirSync(join(dir, '99990101000000_broken'));
    writeFileSync(
      join(dir, '99990101000000_broken', 'migration.sql'),
      'CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;',
    );
    await expect(runMigrations(db.url, dir)).rejects.toThrow(/99990101000000_broken failed/);
    const tables = await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'");
    expect(tables).toHaveLength(0);
    const recorded = await db.query(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '99990101000000_broken'`,
    );
    expect(recorded).toHaveLength(0);
  });
});
