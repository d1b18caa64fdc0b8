import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ensureAppRole } from './app-role.js';

/** `prisma/migrations` of the repository, found upwards from this file (source or bundle in dist/). */
function findMigrationsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('prisma/migrations not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const DEFAULT_MIGRATIONS_DIR = findMigrationsDir();

// Prisma's own bookkeeping table, so that `prisma migrate deploy` can take over where the
// migrate engine is available. Created only when missing: the apps' restricted role, which checks
// for pending migrations at every start, may not create tables (not even `IF NOT EXISTS`).
const CREATE_TABLE = `
CREATE TABLE "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;
const LOCK_ID = 72_707_369; // any constant; serialises concurrent runners

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export interface MigrationOptions {
  /**
   * The apps' connection string when it uses another role than `url` (the owner): after
   * migrating, that role is made to exist with this URL's password and the data privileges only
   * (app-role.ts). Unset: the apps use the owner's role.
   */
  appDatabaseUrl?: string;
  log?: (line: string) => void;
}

/**
 * Applies the migrations that are not yet recorded, each in its own transaction, and returns
 * their names. Refuses to run when an applied migration was edited afterwards or a previous
 * run failed half-way, as `prisma migrate deploy` does.
 */
export async function runMigrations(
  url: string,
  dir: string = DEFAULT_MIGRATIONS_DIR,
  options: MigrationOptions = {},
): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    const { rows: table } = await client.query<{ found: boolean }>(
      `SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS found`,
    );
    if (!table[0]!.found) await client.query(CREATE_TABLE);
    const { rows } = await client.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
    const applied = new Map(rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    const done: string[] = [];
    for (const migration of readMigrations(dir)) {
      const row = applied.get(migration.name);
      if (row) {
        if (row.finished_at === null) {
          throw new Error(`Migration ${migration.name} failed earlier; fix the database and mark it rolled back.`);
        }
        if (row.checksum !== migration.checksum) {
          throw new Error(`Migration ${migration.name} was modified after it was applied.`);
        }
        continue;
      }
      await applyOne(client, migration);
      done.push(migration.name);
    }
    if (options.appDatabaseUrl) await ensureAppRole(client, options.appDatabaseUrl, options.log ?? (() => {}));
    return done;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => {});
    await client.end();
  }
}

async function applyOne(client: pg.Client, migration: Migration): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    const hint =
      (error as { code?: string }).code === '42501'
        ? ' (this role may change data, not the schema: migrations run as the owner, e.g. `node dist/migrate.js` with MIGRATION_DATABASE_URL)'
        : '';
    throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}${hint}`, { cause: error });
  }
}
