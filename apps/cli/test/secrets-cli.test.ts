// `pnpm cli` refuses to work with another API_KEY_PEPPER than the database was started with (keys
// it made would never verify), and `secrets forget` is how a deliberate change is made.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliContext } from './cli-context.js';
import { checkSharedSecrets, fingerprintOf, sharedSecretsOf } from '@platform/runtime';
import { createTestDatabase, TEST_PEPPER, type TestDatabase } from '@platform/testkit';
import { runCli } from '../src/run.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const WEBHOOK_KEY = randomBytes(32).toString('hex');
let db: TestDatabase;
let dataDir: string;
beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'secrets-cli-'));
});
beforeEach(async () => {
  await db.query('DELETE FROM secret_fingerprints');
  await checkSharedSecrets(db.prisma, sharedSecretsOf({ apiKeyPepper: TEST_PEPPER, webhookSecretKey: WEBHOOK_KEY }));
});
afterAll(async () => {
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const recorded = async () =>
  Object.fromEntries(
    (await db.query<{ name: string; fingerprint: string }>('SELECT name, fingerprint FROM secret_fingerprints')).map(
      (row) => [row.name, row.fingerprint],
    ),
  );

const cli = (line: string) => runCli(line.split(' '), async () => cliContext(db));

describe('secrets forget', () => {
  it('forgets the recorded fingerprint of the secret named, and only that one', async () => {
    const result = await cli('secrets forget API_KEY_PEPPER --json');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.output)).toMatchObject({ name: 'API_KEY_PEPPER', forgotten: true });
    expect(await recorded()).toEqual({ WEBHOOK_SECRET_KEY: fingerprintOf(WEBHOOK_KEY) });
    expect(JSON.parse((await cli('secrets forget API_KEY_PEPPER --json')).output)).toMatchObject({
      forgotten: false,
      recorded_at: null,
    });
  });

  it.each(['secrets forget', 'secrets forget SMTP_URL', 'secrets forget api_key_pepper'])(
    'refuses a name that is not a shared secret: %s',
    async (line) => {
      const result = await cli(line);
      expect(result.exitCode).toBe(2);
      expect(result.output).toContain('Name one of API_KEY_PEPPER, WEBHOOK_SECRET_KEY');
      expect(Object.keys(await recorded())).toHaveLength(2);
    },
  );
});

describe('pnpm cli as a process', { timeout: 300_000 }, () => {
  const run = (args: string[], pepper: string, webhookKey = WEBHOOK_KEY) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        join(ROOT, 'node_modules/.bin/tsx'),
        ['apps/cli/src/main.ts', ...args],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            DATABASE_URL: db.url,
            API_KEY_PEPPER: pepper,
            WEBHOOK_SECRET_KEY: webhookKey,
            APP_ENV: 'sandbox',
            DATA_DIR: dataDir,
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );

  it('refuses another API_KEY_PEPPER in one line; after secrets forget the next command records the new one', async () => {
    const other = `other-${TEST_PEPPER}`;
    const refused = await run(['account', 'create', '--name', 'Refused', '--json'], other);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^Error: API_KEY_PEPPER differs from the one this database was initialised with/);
    expect(refused.stdout + refused.stderr).not.toContain(other);
    expect(await db.query("SELECT id FROM accounts WHERE name = 'Refused'")).toEqual([]);

    const forgotten = await run(['secrets', 'forget', 'API_KEY_PEPPER', '--json'], other);
    expect(forgotten.code, forgotten.stderr).toBe(0);
    const created = await run(['account', 'create', '--name', 'After the change', '--json'], other);
    expect(created.code, created.stderr).toBe(0);
    expect((await recorded()).API_KEY_PEPPER).toBe(fingerprintOf(other));
  });

  it('does not check WEBHOOK_SECRET_KEY, which it encrypts nothing with', async () => {
    const result = await run(
      ['account', 'create', '--name', 'Other webhook key', '--json'],
      TEST_PEPPER,
      'ef'.repeat(32),
    );
    expect(result.code, result.stderr).toBe(0);
    expect((await recorded()).WEBHOOK_SECRET_KEY).toBe(fingerprintOf(WEBHOOK_KEY));
  });
});
