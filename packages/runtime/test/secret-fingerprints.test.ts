// The secrets every instance must share are recorded by the first start (as fingerprints) and a
// start with another value is refused, in one line that names the variable and not the secret.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPrisma } from '@platform/db';
import {
  createTenant,
  createTestDatabase,
  TEST_PEPPER,
  TEST_SERVICES,
  whileHeld,
  type TestDatabase,
} from '@platform/testkit';
import {
  checkSharedSecrets,
  fingerprintOf,
  forgetSecretFingerprint,
  SecretMismatchError,
  type SharedSecret,
} from '../src/index.js';
import { cleanUp, runStart, startEnv, startRedis } from './startup-process.js';

const PEPPER = `pepper-${randomBytes(24).toString('hex')}`;
const WEBHOOK_KEY = randomBytes(32).toString('hex');
const secrets = (pepper = PEPPER, webhookKey = WEBHOOK_KEY): SharedSecret[] => [
  { name: 'API_KEY_PEPPER', value: pepper },
  { name: 'WEBHOOK_SECRET_KEY', value: webhookKey },
];

let db: TestDatabase;
const recorded = () =>
  db.query<{ name: string; fingerprint: string; recorded_at: Date }>(
    'SELECT name, fingerprint, recorded_at FROM secret_fingerprints ORDER BY name',
  );
const refusal = async (promise: Promise<unknown>): Promise<SecretMismatchError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SecretMismatchError);
  return error as SecretMismatchError;
};

beforeAll(async () => {
  db = await createTestDatabase();
});
beforeEach(async () => {
  await db.query('DELETE FROM secret_fingerprints');
});
afterAll(async () => {
  await db?.drop();
  await cleanUp();
});

describe('the fingerprint of a secret', () => {
  it('is an HMAC keyed with the secret: stable, different per secret, neither the secret nor its plain hash', () => {
    expect(fingerprintOf(PEPPER)).toBe(fingerprintOf(PEPPER));
    expect(fingerprintOf(PEPPER)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintOf(`${PEPPER}x`)).not.toBe(fingerprintOf(PEPPER));
    expect(fingerprintOf(PEPPER)).not.toContain(PEPPER);
    expect(fingerprintOf(PEPPER)).not.toBe(createHash('sha256').update(PEPPER).digest('hex'));
  });
});

describe('checkSharedSecrets', () => {
  it('records the fingerprints at the first start, and the same secrets start again', async () => {
    await checkSharedSecrets(db.prisma, secrets());
    const rows = await recorded();
    expect(rows.map((r) => [r.name, r.fingerprint])).toEqual([
      ['API_KEY_PEPPER', fingerprintOf(PEPPER)],
      ['WEBHOOK_SECRET_KEY', fingerprintOf(WEBHOOK_KEY)],
    ]);
    expect(JSON.stringify(rows)).not.toContain(PEPPER);
    expect(JSON.stringify(rows)).not.toContain(WEBHOOK_KEY);
    await checkSharedSecrets(db.prisma, secrets());
    expect(await recorded()).toEqual(rows); // nothing re-recorded
  });

  it.each([
    ['API_KEY_PEPPER', secrets(`other-${PEPPER}`), `other-${PEPPER}`, /keys issued with the other cannot be verified/],
    ['WEBHOOK_SECRET_KEY', secrets(PEPPER, 'ab'.repeat(32)), 'ab'.repeat(32), /signing secrets .* cannot be decrypted/],
  ])('refuses another %s in one line that names it and not the secret', async (name, changed, value, consequence) => {
    await checkSharedSecrets(db.prisma, secrets());
    const error = await refusal(checkSharedSecrets(db.prisma, changed));
    const day = (await recorded())[0]!.recorded_at.toISOString().slice(0, 10);
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toMatch(
      new RegExp(`^${name} differs from the one this database was initialised with \\(fingerprint recorded ${day}\\)`),
    );
    expect(error.message).toMatch(consequence);
    expect(error.message).toContain(`pnpm cli secrets forget ${name}`);
    for (const secret of [value, PEPPER, WEBHOOK_KEY]) expect(error.message).not.toContain(secret);
  });

  it('names both when both differ, one line each', async () => {
    await checkSharedSecrets(db.prisma, secrets());
    const error = await refusal(checkSharedSecrets(db.prisma, secrets(`other-${PEPPER}`, 'cd'.repeat(32))));
    expect(error.message.split('\n').map((line) => line.split(' ')[0])).toEqual([
      'API_KEY_PEPPER',
      'WEBHOOK_SECRET_KEY',
    ]);
  });

  it('lets two starts at once with the same secrets both pass: the second waits for the first one’s row', async () => {
    const insertFirst = (fingerprint: string) => (tx: Parameters<Parameters<typeof whileHeld>[1]>[0]) =>
      tx.$executeRawUnsafe(
        "INSERT INTO secret_fingerprints (name, fingerprint) VALUES ('API_KEY_PEPPER', $1)",
        fingerprint,
      );
    const same = await whileHeld(db, insertFirst(fingerprintOf(PEPPER)), () =>
      checkSharedSecrets(db.prisma, secrets()).then(() => 'started'),
    );
    expect(same).toEqual({ result: 'started', waited: 1 });
    // Had the other start recorded another value, the waiting one sees it once it commits.
    await db.query('DELETE FROM secret_fingerprints');
    const other = await whileHeld(db, insertFirst(fingerprintOf(`other-${PEPPER}`)), () =>
      checkSharedSecrets(db.prisma, secrets()).then(
        () => 'started',
        (error: unknown) => (error instanceof SecretMismatchError ? 'refused' : error),
      ),
    );
    expect(other).toEqual({ result: 'refused', waited: 1 });
  });

  it('lets many starts at once on connections of their own all pass, with one row per secret', async () => {
    const clients = Array.from({ length: 4 }, () => createPrisma({ url: db.url, maxConnections: 1 }));
    try {
      await Promise.all(clients.map((client) => checkSharedSecrets(client, secrets())));
    } finally {
      await Promise.all(clients.map((client) => client.$disconnect()));
    }
    expect((await recorded()).map((r) => r.fingerprint)).toEqual([fingerprintOf(PEPPER), fingerprintOf(WEBHOOK_KEY)]);
  });

  it('gives a database from before fingerprints (keys, no rows) those of its first start', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0]! });
    expect(await recorded()).toEqual([]);
    await checkSharedSecrets(db.prisma, secrets(TEST_PEPPER));
    expect((await recorded())[0]).toMatchObject({ name: 'API_KEY_PEPPER', fingerprint: fingerprintOf(TEST_PEPPER) });
    await refusal(checkSharedSecrets(db.prisma, secrets()));
    expect(await db.query('SELECT id FROM api_keys WHERE id = $1', [tenant.keyId])).toHaveLength(1);
  });

  it('records the new value after forgetSecretFingerprint (a deliberate change)', async () => {
    await checkSharedSecrets(db.prisma, secrets());
    expect(await forgetSecretFingerprint(db.prisma, 'API_KEY_PEPPER')).toMatchObject({ forgotten: true });
    expect(await forgetSecretFingerprint(db.prisma, 'API_KEY_PEPPER')).toEqual({ forgotten: false });
    await checkSharedSecrets(db.prisma, secrets(`new-${PEPPER}`));
    expect((await recorded()).map((r) => r.fingerprint)).toEqual([
      fingerprintOf(`new-${PEPPER}`),
      fingerprintOf(WEBHOOK_KEY),
    ]);
  });
});

// Each start loads the whole app (seconds of CPU on a busy machine): generous time-outs.
describe('pnpm start', { timeout: 240_000 }, () => {
  let processDb: TestDatabase;
  let redisUrl: string;
  beforeAll(async () => {
    processDb = await createTestDatabase();
    redisUrl = await startRedis('noeviction');
  }, 60_000);
  afterAll(async () => {
    await processDb?.drop();
  });

  const env = (pepper: string) =>
    startEnv({
      DATABASE_URL: processDb.url,
      REDIS_URL: redisUrl,
      API_KEY_PEPPER: pepper,
      WEBHOOK_SECRET_KEY: WEBHOOK_KEY,
      LOG_LEVEL: 'info',
    });

  it('starts twice at once with the same secrets, then refuses another pepper in one line, exit code 1', async () => {
    const [first, second] = await Promise.all([
      env(PEPPER).then((e) => runStart(e, { until: /agent platform listening/, timeoutMs: 200_000 })),
      env(PEPPER).then((e) => runStart(e, { until: /agent platform listening/, timeoutMs: 200_000 })),
    ]);
    for (const started of [first, second]) {
      expect(started.stdout, started.stderr).toMatch(/agent platform listening/);
      expect(started.code, started.stderr).toBe(0);
    }
    const rows = await processDb.query<{ name: string; fingerprint: string }>(
      'SELECT name, fingerprint FROM secret_fingerprints ORDER BY name',
    );
    expect(rows).toEqual([
      { name: 'API_KEY_PEPPER', fingerprint: fingerprintOf(PEPPER) },
      { name: 'WEBHOOK_SECRET_KEY', fingerprint: fingerprintOf(WEBHOOK_KEY) },
    ]);

    const other = `other-${PEPPER}`;
    const refused = await runStart(await env(other), { timeoutMs: 200_000 });
    const lines = refused.stderr.trim().split('\n');
    expect(refused.code, refused.stderr).toBe(1);
    expect(lines, refused.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^API_KEY_PEPPER differs from the one this database was initialised with/);
    expect(refused.stderr).not.toMatch(/^\s+at /m);
    expect(refused.stdout).not.toMatch(/listening/);
    for (const secret of [other, PEPPER, WEBHOOK_KEY]) expect(refused.stdout + refused.stderr).not.toContain(secret);
  });
});
