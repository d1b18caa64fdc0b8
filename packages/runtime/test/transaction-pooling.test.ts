// The settings for a transaction pooler: what the configuration demands, and the start-up check
// of the pooled sessions against a real PgBouncer.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startPgBouncer, type StartedPgBouncer, type TestDatabase } from '@platform/testkit';
import { ConfigError, loadConfig } from '../src/config.js';
import { pooledSessionProblem } from '../src/pooled-session.js';

const cwd = mkdtempSync(join(tmpdir(), 'pooling-config-'));
const POOLER = 'postgresql://app:secret@pooler:6432/platform';
const DIRECT = 'postgresql://app:secret@db:5432/platform';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env, cwd);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n');
    throw error;
  }
};

describe('configuration of a transaction pooler', () => {
  it('defaults to a direct connection with prepared statements', () => {
    const config = loadConfig({ DATABASE_URL: DIRECT }, cwd);
    expect([config.databasePooling, config.preparedStatements, config.directDatabaseUrl]).toEqual([
      'none',
      true,
      undefined,
    ]);
  });

  it('behind a pooler, needs the direct URL for migrations and turns named statements off unless told', () => {
    expect(problemsOf({ DATABASE_URL: POOLER, DATABASE_POOLING: 'transaction' }).join('\n')).toMatch(
      /DATABASE_POOLING=transaction needs DIRECT_DATABASE_URL/,
    );
    const pooled = { DATABASE_URL: POOLER, DATABASE_POOLING: 'transaction', DIRECT_DATABASE_URL: DIRECT };
    expect(loadConfig(pooled, cwd).preparedStatements).toBe(false);
    expect(loadConfig({ ...pooled, DATABASE_PREPARED_STATEMENTS: 'true' }, cwd).preparedStatements).toBe(true);
  });

  it('names each wrong value', () => {
    const problems = problemsOf({
      DATABASE_POOLING: 'session',
      DIRECT_DATABASE_URL: 'mysql://x',
      DATABASE_PREPARED_STATEMENTS: 'yes',
    }).join('\n');
    expect(problems).toMatch(/DATABASE_POOLING must be none or transaction \(got "session"\)/);
    expect(problems).toMatch(/DIRECT_DATABASE_URL must start with postgresql:\/\//);
    expect(problems).toMatch(/DATABASE_PREPARED_STATEMENTS must be true or false \(got "yes"\)/);
  });
});

describe('the pooled sessions, checked at start', () => {
  let db: TestDatabase;
  let utc: StartedPgBouncer;
  let berlin: StartedPgBouncer;
  beforeAll(async () => {
    db = await createTestDatabase({ empty: true });
    utc = await startPgBouncer(db.url, { timezone: 'UTC' });
    berlin = await startPgBouncer(db.url, { timezone: 'Europe/Berlin' });
  });
  afterAll(async () => {
    await utc?.stop();
    await berlin?.stop();
    await db?.drop();
  });

  it('accepts sessions in UTC and warns of missing time limits', async () => {
    const warnings: string[] = [];
    expect(await pooledSessionProblem(utc.url, (line) => warnings.push(line))).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/no statement_timeout/);
  });

  it('refuses sessions in another zone, naming the fix', async () => {
    expect(await pooledSessionProblem(berlin.url, () => {})).toMatch(
      /TimeZone Europe\/Berlin, and must have UTC: set timezone=UTC on the pooler's database entry/,
    );
  });
});
