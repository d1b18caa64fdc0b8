// The migrate one-shot as docker-compose runs it: migrations as the owner (MIGRATION_DATABASE_URL),
// the apps' role (DATABASE_URL's user) created with that URL's password and data privileges only.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_MIGRATIONS_DIR, readMigrations, runMigrations } from '@platform/db';
import { adminUrl, queryAt, runScript, TEST_PEPPER, withDatabase } from '@platform/testkit';

const suffix = randomBytes(4).toString('hex');
const database = `app_role_${suffix}`;
const owner = { name: `owner_${suffix}`, password: randomBytes(16).toString('hex') };
const app = { name: `platform_app_${suffix}`, password: randomBytes(16).toString('hex') };

function urlAs(role: { name: string; password: string }): string {
  const url = new URL(withDatabase(adminUrl(), database));
  url.username = role.name;
  url.password = role.password;
  return url.toString();
}

/** The SQLSTATE a statement fails with as `role`, or 'ok'. */
async function outcome(role: { name: string; password: string }, sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: urlAs(role) });
  await client.connect();
  try {
    await client.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end();
  }
}

let migrateOutput = '';
beforeAll(async () => {
  // The owner as on a managed server: not a superuser, owns the database, may create roles.
  await queryAt(adminUrl(), `CREATE ROLE ${owner.name} LOGIN CREATEROLE PASSWORD '${owner.password}'`);
  await queryAt(adminUrl(), `CREATE DATABASE ${database} OWNER ${owner.name}`);
  const run = await runScript('scripts/migrate.ts', [], {
    PATH: process.env.PATH,
    TMPDIR: process.env.TMPDIR,
    MIGRATION_DATABASE_URL: urlAs(owner),
    DATABASE_URL: urlAs(app),
    API_KEY_PEPPER: TEST_PEPPER,
  });
  migrateOutput = run.stdout + run.stderr;
  expect(run.code, migrateOutput).toBe(0);
}, 120_000);

afterAll(async () => {
  await queryAt(adminUrl(), `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await queryAt(adminUrl(), `DROP ROLE IF EXISTS ${app.name}`);
  await queryAt(adminUrl(), `DROP ROLE IF EXISTS ${owner.name}`);
});

describe('the migrate one-shot with MIGRATION_DATABASE_URL', () => {
  it("creates the apps' role with DATABASE_URL's password, not a superuser, and never prints a password", async () => {
    const [role] = await queryAt(
      adminUrl(),
      `SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = '${app.name}'`,
    );
    expect(role).toEqual({
      rolsuper: false,
      rolcreatedb: false,
      rolcreaterole: false,
      rolreplication: false,
      rolbypassrls: false,
      rolcanlogin: true,
    });
    expect(migrateOutput).toContain(`created the apps' database role "${app.name}"`);
    expect(migrateOutput).toContain('database is up to date');
    expect(migrateOutput).not.toContain(app.password);
    expect(migrateOutput).not.toContain(owner.password);
  });

  it('lets the role read and write every table (the migrations were applied by the owner)', async () => {
    const [{ n }] = await queryAt(urlAs(app), 'SELECT count(*)::int AS n FROM "_prisma_migrations"');
    expect(n).toBe(readMigrations().length);
    expect(await outcome(app, `UPDATE "secret_fingerprints" SET "name" = "name" WHERE false`)).toBe('ok');
    expect(await outcome(app, `DELETE FROM "secret_fingerprints" WHERE false`)).toBe('ok');
  });

  it("keeps the migrations' bookkeeping read-only for the role", async () => {
    expect(await outcome(app, `DELETE FROM "_prisma_migrations" WHERE false`)).toBe('42501');
    expect(await outcome(app, `UPDATE "_prisma_migrations" SET checksum = checksum WHERE false`)).toBe('42501');
  });

  it('lets the role vacuum the tables (erasure frees the space of old row versions), not skip them', async () => {
    const client = new pg.Client({ connectionString: urlAs(app) });
    const notices: string[] = [];
    client.on('notice', (notice) => notices.push(notice.message ?? ''));
    await client.connect();
    try {
      await client.query('VACUUM prospects, inquiries');
    } finally {
      await client.end();
    }
    expect(notices).toEqual([]);
  });

  it.each([
    ['CREATE TABLE', 'CREATE TABLE intruder (id int)'],
    // why the runner creates its bookkeeping table only when it is missing
    ['CREATE TABLE IF NOT EXISTS of an existing table', 'CREATE TABLE IF NOT EXISTS "_prisma_migrations" (id int)'],
    ['CREATE SCHEMA', 'CREATE SCHEMA intruder'],
    ['DROP TABLE', 'DROP TABLE "_prisma_migrations"'],
    ['ALTER TABLE', 'ALTER TABLE "_prisma_migrations" ADD COLUMN intruder int'],
    ['TRUNCATE', 'TRUNCATE "_prisma_migrations"'],
    ['CREATE ROLE', 'CREATE ROLE intruder'],
  ])('refuses the role %s (permission denied)', async (_, sql) => {
    expect(await outcome(app, sql)).toBe('42501');
  });

  it("lets the apps' start find no pending migration as the role (the bookkeeping table is not created again)", async () => {
    expect(await runMigrations(urlAs(app))).toEqual([]);
  });

  it('grants the role the tables of later migrations, and applies a changed password on the next run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'app-role-migrations-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
    mkdirSync(join(dir, '99991231000000_later'));
    writeFileSync(join(dir, '99991231000000_later', 'migration.sql'), 'CREATE TABLE "later" ("id" TEXT PRIMARY KEY);');
    const changed = { ...app, password: randomBytes(16).toString('hex') };
    const lines: string[] = [];
    expect(
      await runMigrations(urlAs(owner), dir, { appDatabaseUrl: urlAs(changed), log: (l) => lines.push(l) }),
    ).toEqual(['99991231000000_later']);
    expect(lines).toEqual([`set the password of the apps' database role "${app.name}" from DATABASE_URL`]);
    expect(await outcome(changed, `INSERT INTO "later" VALUES ('a')`)).toBe('ok');
    expect(await outcome(changed, 'DROP TABLE "later"')).toBe('42501');
    await expect(queryAt(urlAs(app), 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
  });
});
