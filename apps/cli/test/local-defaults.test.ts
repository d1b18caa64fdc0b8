// `pnpm start` on the embedded defaults, as a new user runs it on a machine with other users:
// another OS user can open neither the database nor Redis, no password reaches the temp dir, the
// services work as an application role that is not a superuser, and `pnpm cli` explains a
// database of DATA_DIR that runs with other settings in one line.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  watch,
  type FSWatcher,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma } from '@platform/db';
import { freePort } from '@platform/testkit';
import { prepareProbe, su, type ProbeInput } from './other-user.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const IS_ROOT = process.getuid?.() === 0;
const APP_ROLE = 'platform';

/** The environment of a new user: no DATABASE_URL or REDIS_URL, so everything is embedded. */
function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'APP_ENV', 'API_KEY_PEPPER', 'WEBHOOK_SECRET_KEY', 'LOG_LEVEL'])
    delete env[name];
  return { ...env, ...extra };
}

/** Every file under `dir` (recursively), for a scan of its contents. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

describe('pnpm start on the embedded defaults', () => {
  let work: string;
  let temp: string;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let ports: { pg: number; redis: number };
  let start: ChildProcess;
  let watcher: FSWatcher;
  const createdInTemp: string[] = [];
  let output = '';

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'local-defaults-'));
    // As root, the embedded PostgreSQL runs as an OS user of its own that must reach its data dir.
    if (IS_ROOT) chmodSync(work, 0o711);
    temp = join(work, 'tmp');
    dataDir = join(work, 'data');
    mkdirSync(temp);
    watcher = watch(temp, (_event, name) => name && createdInTemp.push(String(name)));
    ports = { pg: await freePort(), redis: await freePort() };
    env = userEnv({
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(ports.pg),
      REDIS_PORT: String(ports.redis),
      PROPERTY_PORT: String(await freePort()),
      AGENT_PLATFORM_PORT: String(await freePort()),
      METRICS_PORT: String(await freePort()),
      TMPDIR: temp,
    });
    start = spawn(TSX, ['scripts/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    start.stdout!.on('data', (chunk) => (output += chunk));
    start.stderr!.on('data', (chunk) => (output += chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`pnpm start did not come up:\n${output}`)), 90_000);
      start.stdout!.on('data', () => {
        if (output.includes('agent platform listening')) {
          clearTimeout(timer);
          resolve();
        }
      });
      start.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`pnpm start exited (${code}):\n${output}`));
      });
    });
  }, 120_000);

  afterAll(async () => {
    watcher?.close();
    if (start && start.exitCode === null) {
      const exited = new Promise((resolve) => start.once('exit', resolve));
      start.kill('SIGTERM');
      const timer = setTimeout(() => start.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  const secrets = () =>
    JSON.parse(readFileSync(join(dataDir, 'sandbox-secrets.json'), 'utf8')) as Record<string, string>;

  it('lets another OS user open neither the database nor Redis (nor read the sandbox secrets)', async (ctx) => {
    ctx.skip(!IS_ROOT, 'needs root: the probes run as the user nobody (su nobody -s /bin/sh -c …)');
    expect(su('nobody', 'true').status, 'su nobody must work on this machine').toBe(0);
    const probe = await prepareProbe(join(work, 'probe'), 'nobody');
    const guesses = ['postgres', 'password', ''];
    const input: ProbeInput = {
      postgres: {
        port: ports.pg,
        hosts: ['127.0.0.1', '/tmp', '/var/run/postgresql'],
        credentials: ['postgres', APP_ROLE].flatMap((user) => guesses.map((password) => ({ user, password }))),
      },
      redis: { port: ports.redis, passwords: [null, ...guesses] },
    };
    const results = probe(input);
    expect(results).toHaveLength(3 * 6 + 4);
    expect(results.filter((r) => r.outcome === 'connected')).toEqual([]);

    // The probe itself works: with the real credentials (which only this user can read) it gets in.
    const real = secrets();
    const control = probe(
      {
        postgres: {
          port: ports.pg,
          hosts: ['127.0.0.1'],
          credentials: [
            { user: 'postgres', password: real.embedded_postgres_superuser_password },
            { user: APP_ROLE, password: real.embedded_postgres_app_password },
          ],
        },
        redis: { port: ports.redis, passwords: [real.embedded_redis_password] },
      },
      { asThisUser: true },
    );
    expect(control.map((r) => r.outcome)).toEqual(['connected', 'connected', 'connected']);

    // Nor can that user read the secrets or the Redis data (queue jobs) on disk.
    expect(su('nobody', `cat '${join(dataDir, 'sandbox-secrets.json')}'`).status).not.toBe(0);
    expect(su('nobody', `ls '${join(dataDir, 'redis')}'`).status).not.toBe(0);
    expect(su('nobody', `ls '${join(dataDir, 'postgres')}'`).status).not.toBe(0);
  }, 120_000);

  it('keeps every secret out of the temp dir: no password file was ever created there, none is left', () => {
    expect(createdInTemp.filter((name) => name.startsWith('pg-password'))).toEqual([]);
    const values = Object.values(secrets());
    expect(values.length).toBeGreaterThanOrEqual(5);
    const leaking = filesUnder(temp).filter((file) => {
      if (lstatSync(file).size > 10_000_000) return false;
      const content = readFileSync(file, 'utf8');
      return values.some((value) => content.includes(value));
    });
    expect(leaking).toEqual([]);
    expect(statSync(join(dataDir, 'sandbox-secrets.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('.initdb'))).toEqual([]);
    expect(existsSync(`/tmp/.s.PGSQL.${ports.pg}`)).toBe(false);
  });

  it('writes no log files into DATA_DIR (PostgreSQL and Redis log through the process to its output), so .data grows with data only', () => {
    const logs = filesUnder(dataDir).filter((file) => /(^|\/)(log|pg_log)\/|\.log$/.test(file.slice(dataDir.length)));
    expect(filesUnder(dataDir).length).toBeGreaterThan(10); // the scan sees the database's files
    expect(logs).toEqual([]);
  });

  it('runs the services as an application role that owns the schema but is not a superuser', async () => {
    const real = secrets();
    const app = createPrisma({
      url: `postgresql://${APP_ROLE}:${real.embedded_postgres_app_password}@127.0.0.1:${ports.pg}/platform`,
      maxConnections: 1,
    });
    try {
      const role = await app.$queryRawUnsafe(
        'SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user',
      );
      expect(role).toEqual([{ rolsuper: false, rolcreaterole: false, rolcreatedb: false }]);
      const owners = await app.$queryRawUnsafe(
        `SELECT DISTINCT pg_get_userbyid(relowner)::text AS owner FROM pg_class WHERE relnamespace = 'public'::regnamespace`,
      );
      expect(owners).toEqual([{ owner: APP_ROLE }]);
      const database = await app.$queryRawUnsafe(
        `SELECT pg_get_userbyid(datdba)::text AS owner FROM pg_database WHERE datname = 'platform'`,
      );
      expect(database).toEqual([{ owner: APP_ROLE }]);
      await expect(app.$executeRawUnsafe(`COPY (SELECT 1) TO PROGRAM 'true'`)).rejects.toThrow(
        /permission denied|must be superuser|pg_execute_server_program/,
      );
    } finally {
      await app.$disconnect();
    }
  });

  const cli = (args: string[], extra: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        TSX,
        ['apps/cli/src/main.ts', ...args],
        { cwd: ROOT, env: { ...env, ...extra }, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('pnpm cli works on the running database', async () => {
    const result = await cli(['account', 'create', '--name', 'Local', '--json']);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'Local' });
  }, 60_000);

  it('pnpm cli says in one line, with what to do, when the database of DATA_DIR runs with another EMBEDDED_PG_PORT', async () => {
    const other = await freePort();
    const result = await cli(['account', 'create', '--name', 'Elsewhere', '--json'], {
      EMBEDDED_PG_PORT: String(other),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`already running on port ${ports.pg}`);
    expect(lines[0]).toContain(`EMBEDDED_PG_PORT=${ports.pg}`);
    expect(lines[0]).not.toMatch(/undefined/);
  }, 60_000);
});
