// The embedded PostgreSQL is as closed as a production setup: no fixed password, passwords (SCRAM)
// for every connection, loopback only, no Unix socket, roles that are not superusers, and no
// password file in the temp dir at any time (not even while initdb runs, not even when it fails).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EmbeddedPostgresBusyError,
  EmbeddedPostgresError,
  embeddedUrl,
  startEmbeddedPostgres,
  type EmbeddedDatabase,
} from '@platform/db';

const IS_ROOT = process.getuid?.() === 0;
// Below the kernel's ephemeral ports (32768 and up), which outgoing connections take.
const port = () => 20_000 + Math.floor(Math.random() * 10_000);
const APP = { name: 'platform', password: 'app-secret-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };

/** Connects and runs one query; the error code (e.g. 28P01) if the server refuses. */
async function attempt(
  url: string,
  sql = 'SELECT 1 AS one',
): Promise<{ rows: Record<string, unknown>[] } | { refused: string }> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    return { rows: (await client.query(sql)).rows };
  } catch (error) {
    return { refused: (error as { code?: string }).code ?? (error as Error).message };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Names created in the temp dir while `fn` runs. */
async function createdInTempDir(fn: () => Promise<unknown>): Promise<string[]> {
  const names: string[] = [];
  const watcher = watch(tmpdir(), (_event, name) => name && names.push(String(name)));
  try {
    await fn();
    await new Promise((resolve) => setTimeout(resolve, 50)); // let the last events arrive
  } finally {
    watcher.close();
  }
  return names;
}

describe('startEmbeddedPostgres', () => {
  let work: string;
  let server: EmbeddedDatabase;
  let created: string[];
  const superuserPassword = 'superuser-secret-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'embedded-security-'));
    if (IS_ROOT) chmodSync(work, 0o711); // the server's own OS user must reach its data dir
    created = await createdInTempDir(async () => {
      server = await startEmbeddedPostgres({
        dataDir: join(work, 'pg'),
        port: port(),
        superuserPassword,
        roles: [APP],
        persistent: false,
        durable: false,
      });
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('writes no password file into the temp dir while initdb runs, and leaves nothing beside the data dir', () => {
    expect(created).toEqual([]);
    expect(readdirSync(work)).toEqual(['pg']);
  });

  it('requires a password (SCRAM) for every connection and knows only the ones it was given', async () => {
    expect(await attempt(server.adminUrl)).toEqual({ rows: [{ one: 1 }] });
    expect(await attempt(server.urlFor('postgres', APP))).toEqual({ rows: [{ one: 1 }] });
    for (const password of ['postgres', 'password', 'wrong']) {
      expect(await attempt(embeddedUrl(server.port, 'postgres', { name: 'postgres', password }))).toEqual({
        refused: '28P01',
      });
      expect(await attempt(embeddedUrl(server.port, 'postgres', { name: APP.name, password }))).toEqual({
        refused: '28P01',
      });
    }
    const hba = readFileSync(join(work, 'pg', 'pg_hba.conf'), 'utf8');
    expect(hba.split('\n').filter((line) => line && !line.startsWith('#'))).toEqual([
      'local all all scram-sha-256',
      'host all all 127.0.0.1/32 scram-sha-256',
      'host all all ::1/128 scram-sha-256',
    ]);
    const stored = await attempt(
      server.adminUrl,
      `SELECT rolname, left(rolpassword, 14) AS method FROM pg_authid WHERE rolname IN ('postgres', 'platform') ORDER BY rolname`,
    );
    expect(stored).toEqual({
      rows: [
        { rolname: 'platform', method: 'SCRAM-SHA-256$' },
        { rolname: 'postgres', method: 'SCRAM-SHA-256$' },
      ],
    });
  });

  it('listens on 127.0.0.1 only, without a Unix socket', async () => {
    const settings = await attempt(
      server.adminUrl,
      `SELECT name, setting FROM pg_settings WHERE name IN ('listen_addresses', 'unix_socket_directories') ORDER BY name`,
    );
    expect(settings).toEqual({
      rows: [
        { name: 'listen_addresses', setting: '127.0.0.1' },
        { name: 'unix_socket_directories', setting: '' },
      ],
    });
  });

  it('gives its roles no superuser rights', async () => {
    const role = await attempt(
      server.urlFor('postgres', APP),
      'SELECT rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls FROM pg_roles WHERE rolname = current_user',
    );
    expect(role).toEqual({
      rows: [{ rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolreplication: false, rolbypassrls: false }],
    });
    const copy = await attempt(server.urlFor('postgres', APP), `COPY (SELECT 1) TO PROGRAM 'true'`);
    expect(copy).toEqual({ refused: '42501' });
  });

  it('refuses a second server on the same data dir, naming the port of the one that holds it', async () => {
    const error = await startEmbeddedPostgres({ dataDir: join(work, 'pg'), port: port(), persistent: false }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EmbeddedPostgresBusyError);
    expect((error as EmbeddedPostgresBusyError).port).toBe(server.port);
  });
});

describe('startEmbeddedPostgres when something goes wrong', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'embedded-failures-'));
    if (IS_ROOT) chmodSync(work, 0o711);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('a failing initdb leaves no password file behind, in the temp dir or beside the data dir', async () => {
    const dataDir = join(work, 'not-empty');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'stray-file'), 'initdb refuses a directory that is not empty');
    let error: unknown;
    const created = await createdInTempDir(async () => {
      error = await startEmbeddedPostgres({ dataDir, port: port(), persistent: false }).catch((e: unknown) => e);
    });
    expect(error).toBeInstanceOf(EmbeddedPostgresError);
    expect((error as Error).message).toMatch(/initdb failed/);
    expect(created).toEqual([]);
    expect(readdirSync(work)).toEqual(['not-empty']);
  }, 60_000);

  it('a server that cannot start says why (not a bare undefined)', async () => {
    const busyPort = port();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(busyPort, '127.0.0.1', resolve));
    try {
      const error = await startEmbeddedPostgres({
        dataDir: join(work, 'blocked'),
        port: busyPort,
        persistent: false,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmbeddedPostgresError);
      expect((error as Error).message).toMatch(
        new RegExp(`did not start on port ${busyPort}: .*(could not|Address already in use)`),
      );
    } finally {
      blocker.close();
    }
  }, 60_000);
});
