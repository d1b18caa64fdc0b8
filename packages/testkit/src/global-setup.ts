import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { closedAncestor, runMigrations, startEmbeddedPostgres, type EmbeddedRole } from '@platform/db';
import { auditRunLogs } from './run-log-audit.js';

export const TEMPLATE_DATABASE = 'platform_test_template';

/** The role the tests' apps work as on the embedded server: not a superuser; CREATEDB to clone the template. */
export const TEST_APP_ROLE = 'platform';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser (embedded) or DATABASE_URL: for catalog checks and CREATE/DROP DATABASE. */
    databaseAdminUrl: string;
    /** The application role (embedded) or DATABASE_URL: what the apps under test connect as. */
    databaseUrl: string;
    redisUrl: string;
    /** Where the run's app logs and the values they must not contain are collected (run-log.ts). */
    runLogDir: string;
  }
}

/**
 * One PostgreSQL per test run (embedded, or the server of `DATABASE_URL`), with a migrated
 * template database; every test file clones it into a database of its own. The embedded server
 * and Redis are as closed as `pnpm start`'s: random passwords (kept in memory only), loopback,
 * no Unix socket. Everything the run writes goes to one temp root (TMPDIR of the test
 * processes), removed at the end.
 */
export default async function setup(project: TestProject) {
  const previousTmpdir = process.env.TMPDIR;
  // As root the embedded PostgreSQL runs as an OS user of its own, which must pass through the
  // root and the temp dir to reach its data dir: others may enter (x), not list. A TMPDIR it
  // cannot pass (e.g. TMPDIR=$(mktemp -d), 0700) gets the run's root beside it in /tmp instead.
  const asRoot = process.getuid?.() === 0;
  const parent = asRoot && closedAncestor(join(tmpdir(), 'platform-test')) ? '/tmp' : tmpdir();
  const root = mkdtempSync(join(parent, 'platform-test-'));
  const passable = asRoot ? 0o711 : 0o700;
  chmodSync(root, passable);
  const testTmpdir = join(root, 'tmp');
  mkdirSync(testTmpdir, { mode: passable });
  chmodSync(testTmpdir, passable);
  const logDir = join(root, 'logs');
  mkdirSync(logDir, { mode: 0o700 });
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop().catch((error) => console.error(error));
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
    const leaks = auditRunLogs(logDir);
    rmSync(root, { recursive: true, force: true });
    if (leaks.length > 0) {
      // vitest reports an error thrown here but still exits 0: fail the run by its exit code.
      console.error(`FAIL: the logs of this test run contain what they must not:\n  - ${leaks.join('\n  - ')}`);
      process.exitCode = 1;
    }
  };
  try {
    let adminUrl = process.env.DATABASE_URL;
    let appUrl = adminUrl;
    let owner = '';
    if (!adminUrl) {
      const role: EmbeddedRole = {
        name: TEST_APP_ROLE,
        password: randomBytes(32).toString('base64url'),
        createDatabases: true,
      };
      const port = 20_000 + Math.floor(Math.random() * 10_000); // below the ephemeral ports outgoing connections take
      const server = await startEmbeddedPostgres({
        dataDir: join(root, 'postgres'),
        port,
        roles: [role],
        persistent: false,
        durable: false,
      });
      stops.push(() => server.stop());
      adminUrl = server.adminUrl;
      appUrl = server.urlFor('postgres', role);
      owner = ` OWNER ${TEST_APP_ROLE}`;
    }
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DATABASE}"`);
    await client.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"${owner}`);
    await client.end();
    await runMigrations(withDatabase(appUrl!, TEMPLATE_DATABASE));
    project.provide('databaseAdminUrl', adminUrl);
    project.provide('databaseUrl', appUrl!);
    const redis = await startRedis(root);
    stops.push(redis.stop);
    project.provide('redisUrl', redis.url);
    project.provide('runLogDir', logDir);
    // The test processes are forked after this and inherit it: their temp files land in the root.
    process.env.TMPDIR = testTmpdir;
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/**
 * The Redis of `REDIS_URL`, or a private `redis-server` child process for this run: loopback,
 * a random password (handed over on stdin, not in the process list), protected mode.
 */
async function startRedis(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {} };
  const port = 40_000 + Math.floor(Math.random() * 20_000);
  const password = randomBytes(32).toString('base64url');
  const child = spawn('redis-server', ['-'], { stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin.on('error', () => {});
  child.stdin.end(
    [
      `port ${port}`,
      'bind 127.0.0.1',
      'protected-mode yes',
      `requirepass ${password}`,
      `dir "${dir.replace(/[\\"]/g, (c) => `\\${c}`)}"`,
      'save ""',
      'appendonly no',
      'maxmemory-policy noeviction',
    ].join('\n') + '\n',
  );
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(
        new Error(
          `redis-server could not be started (${error.message}); install it (apt-get install redis-server) or set REDIS_URL.`,
        ),
      ),
    );
    const started = Date.now();
    const probe = () => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve();
      });
      socket.once('error', () =>
        Date.now() - started > 10_000 || child.exitCode !== null
          ? reject(new Error('redis-server did not start'))
          : setTimeout(probe, 50),
      );
    };
    probe();
  });
  return {
    url: `redis://:${password}@127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
