// Every start-up mistake a newcomer can make ends `pnpm start` with exit 1 and exactly one line on
// stderr that names the fix: no stack trace. Each case runs the real entry in a process of its own.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUrl, createTestDatabase, withDatabase, type TestDatabase } from '@platform/testkit';
import {
  cleanUp,
  freePort,
  occupy,
  runStart,
  startEnv,
  startRedis,
  tempDir,
  type StartResult,
} from './startup-process.js';

/** Exit 1, one line on stderr matching `fix`, nothing that looks like a stack frame, and none of `secrets`. */
function expectOneLine(result: StartResult, fix: RegExp, secrets: string[] = []): void {
  const lines = result.stderr.trim().split('\n');
  expect(result.code, result.stderr).toBe(1);
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(fix);
  for (const secret of secrets) expect(result.stdout + result.stderr).not.toContain(secret);
}

let database: TestDatabase;
let redisUrl: string;
beforeAll(async () => {
  database = await createTestDatabase();
  redisUrl = await startRedis('noeviction');
});
afterAll(async () => {
  await database?.drop();
  await cleanUp();
});

// Each case loads the whole app (a few seconds of CPU): they run side by side, with room for a busy machine.
describe.concurrent('pnpm start refuses to start in one line', { timeout: 120_000 }, () => {
  it('when a service port is in use', async () => {
    const env = await startEnv({ DATABASE_URL: database.url, REDIS_URL: redisUrl, LOG_LEVEL: 'error' });
    const blocker = await occupy(Number(env.PROPERTY_PORT));
    try {
      expectOneLine(
        await runStart(env),
        new RegExp(`Port ${env.PROPERTY_PORT} \\(PROPERTY_PORT\\) is already in use.*set PROPERTY_PORT to a free port`),
      );
    } finally {
      blocker.close();
    }
  });

  it('when the metrics port is in use', async () => {
    const metricsPort = await freePort();
    const env = await startEnv({
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      LOG_LEVEL: 'error',
      METRICS_PORT: String(metricsPort),
    });
    const blocker = await occupy(metricsPort);
    try {
      expectOneLine(
        await runStart(env),
        new RegExp(`Port ${metricsPort} \\(METRICS_PORT\\) is already in use.*set METRICS_PORT to a free port`),
      );
    } finally {
      blocker.close();
    }
  });

  it('when the embedded PostgreSQL port is taken by something else', async () => {
    const env = await startEnv({});
    const blocker = await occupy(Number(env.EMBEDDED_PG_PORT));
    try {
      expectOneLine(
        await runStart(env),
        new RegExp(
          `Port ${env.EMBEDDED_PG_PORT} \\(EMBEDDED_PG_PORT\\) is in use on 127.0.0.1, but not by the embedded database.*set EMBEDDED_PG_PORT to a free port`,
        ),
      );
    } finally {
      blocker.close();
    }
  });

  it('when the local Redis port is taken by something else', async () => {
    const env = await startEnv({ DATABASE_URL: database.url });
    const blocker = await occupy(Number(env.REDIS_PORT));
    try {
      expectOneLine(
        await runStart(env),
        new RegExp(
          `Port ${env.REDIS_PORT} \\(REDIS_PORT\\) is in use on 127.0.0.1, but not by the local Redis.*set REDIS_PORT to a free port`,
        ),
      );
    } finally {
      blocker.close();
    }
  });

  it('when redis-server is not installed and REDIS_URL is unset', async () => {
    const env = await startEnv({ DATABASE_URL: database.url, PATH: tempDir('startup-empty-path-') });
    expectOneLine(await runStart(env), /redis-server was not found: install it .*or set REDIS_URL/);
  });

  it('when the Redis of REDIS_URL may evict keys (not noeviction)', async () => {
    const env = await startEnv({ DATABASE_URL: database.url, REDIS_URL: await startRedis('allkeys-lru') });
    expectOneLine(
      await runStart(env),
      /maxmemory-policy allkeys-lru.*set it to noeviction \(CONFIG SET maxmemory-policy noeviction/,
    );
  });

  it('when nothing answers at REDIS_URL', async () => {
    const port = await freePort();
    const env = await startEnv({ DATABASE_URL: database.url, REDIS_URL: `redis://:redis-secret@127.0.0.1:${port}` });
    expectOneLine(
      await runStart(env),
      new RegExp(`Could not reach the Redis of REDIS_URL \\(127.0.0.1:${port}: nothing listens there\\)`),
      ['redis-secret'],
    );
  });

  it('when DATA_DIR holds a database of another major PostgreSQL version, which is left as it is', async () => {
    const env = await startEnv({});
    const cluster = join(env.DATA_DIR!, 'postgres');
    mkdirSync(cluster, { recursive: true, mode: 0o700 });
    writeFileSync(join(cluster, 'PG_VERSION'), '16\n');
    expectOneLine(
      await runStart(env),
      /was made by PostgreSQL 16, but this version runs PostgreSQL 17: move it away .*pg_upgrade.*DATABASE_URL/,
    );
    expect(readFileSync(join(cluster, 'PG_VERSION'), 'utf8')).toBe('16\n');
  });

  it('when DATABASE_URL does not parse', async () => {
    const env = await startEnv({ DATABASE_URL: 'postgresql://someone:bad%zzsecret@localhost:5432/platform' });
    expectOneLine(
      await runStart(env),
      /DATABASE_URL is not a valid connection string: use postgresql:\/\/user:password@host:5432\/database/,
      ['bad%zzsecret'],
    );
  });

  it('when nothing answers at DATABASE_URL', async () => {
    const port = await freePort();
    const env = await startEnv({ DATABASE_URL: `postgresql://someone:db-secret@127.0.0.1:${port}/platform` });
    expectOneLine(
      await runStart(env),
      new RegExp(
        `Could not reach PostgreSQL at 127.0.0.1:${port} \\(nothing listens there\\): start it, or fix the host and port in DATABASE_URL`,
      ),
      ['db-secret'],
    );
  });

  it('when DATABASE_URL has a wrong password', async () => {
    const url = new URL(database.url);
    url.password = 'not-the-password';
    const env = await startEnv({ DATABASE_URL: url.toString() });
    expectOneLine(
      await runStart(env),
      new RegExp(`refused the password of user "${url.username}": fix the user or password in DATABASE_URL`),
      ['not-the-password'],
    );
  });

  it('when the database of DATABASE_URL does not exist', async () => {
    const env = await startEnv({ DATABASE_URL: withDatabase(adminUrl(), 'no_such_database') });
    expectOneLine(
      await runStart(env),
      /The database "no_such_database" does not exist .*createdb no_such_database.*DATABASE_URL/,
    );
  });
});
