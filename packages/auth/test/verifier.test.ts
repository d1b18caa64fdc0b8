import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestDatabase, TEST_PEPPER, TEST_SERVICES, type TestDatabase } from '@platform/testkit';
import { generateKey, hashKey } from '../src/key-format.js';
import { rollApiKey } from '../src/key-roll.js';
import { revokeApiKey } from '../src/keys-service.js';
import { KeyVerifier } from '../src/verifier.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

function verifierAt(clock: { now: number }) {
  return new KeyVerifier({
    db: db.prisma,
    service: TEST_SERVICES[0],
    neighbours: TEST_SERVICES,
    environment: 'sandbox',
    pepper: TEST_PEPPER,
    now: () => clock.now,
  });
}

describe('KeyVerifier', () => {
  it('stores only the peppered hash, never the key', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
    const rows = await db.query<{ row: string }>('SELECT row_to_json(k)::text AS row FROM api_keys k WHERE id = $1', [
      tenant.keyId,
    ]);
    expect(rows[0].row).not.toContain(tenant.key);
    expect(rows[0].row).not.toContain(tenant.key.slice(12));
    expect(rows[0].row).toContain(hashKey(tenant.key, TEST_PEPPER));
  });

  it('returns the tenant and scopes of a valid key', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0], scopes: ['things:read'] });
    const auth = await verifierAt({ now: Date.now() }).verify(tenant.key);
    expect(auth).toEqual({
      keyId: tenant.keyId,
      applicationId: tenant.applicationId,
      accountId: tenant.accountId,
      scopes: new Set(['things:read']),
      rateLimitPerMinute: null,
    });
  });

  it('stops accepting a key rolled elsewhere with 0 hours within the cache time (4 s), answering that it expired', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
    const clock = { now: Date.now() };
    const verifier = verifierAt(clock);
    await verifier.verify(tenant.key);
    const rolled = await rollApiKey(db.prisma, {
      keyId: tenant.keyId,
      service: TEST_SERVICES[0],
      environment: 'sandbox',
      pepper: TEST_PEPPER,
      expiresInHours: 0,
      maxKeys: 20,
      now: new Date(clock.now),
    }); // as another instance would
    clock.now += 3_999;
    await expect(verifier.verify(tenant.key)).resolves.toBeTruthy(); // still cached, at most 4 s
    clock.now += 1;
    await expect(verifier.verify(tenant.key)).rejects.toMatchObject({
      code: 'api_key_invalid',
      message: `The API key expired at ${rolled!.previous.expires_at}.`,
      messageDe: `Der API-Schlüssel ist seit ${rolled!.previous.expires_at} abgelaufen.`,
    });
    await expect(verifier.verify(rolled!.plaintext)).resolves.toMatchObject({ keyId: rolled!.key.id });
  });

  it('refuses a cached key from the millisecond of its known expiry, without asking the database again', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
    const clock = { now: Date.now() };
    await db.prisma.apiKey.update({ where: { id: tenant.keyId }, data: { expires_at: new Date(clock.now + 2_000) } });
    const lookups: string[] = [];
    const verifier = new KeyVerifier({
      db: db.prisma,
      service: TEST_SERVICES[0],
      environment: 'sandbox',
      pepper: TEST_PEPPER,
      now: () => clock.now,
      onLookup: (result) => lookups.push(result),
    });
    await expect(verifier.verify(tenant.key)).resolves.toBeTruthy();
    clock.now += 1_999;
    await expect(verifier.verify(tenant.key)).resolves.toBeTruthy();
    clock.now += 1;
    await expect(verifier.verify(tenant.key)).rejects.toMatchObject({ message: /^The API key expired at / });
    expect(lookups).toEqual(['miss', 'hit', 'hit']);
  });

  it('stops accepting a key revoked elsewhere within 5 seconds', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
    const clock = { now: Date.now() };
    const verifier = verifierAt(clock);
    await verifier.verify(tenant.key);
    await revokeApiKey(db.prisma, { id: tenant.keyId }); // as another instance would
    clock.now += 1_000;
    await expect(verifier.verify(tenant.key)).resolves.toBeTruthy(); // still cached
    clock.now += 4_000;
    await expect(verifier.verify(tenant.key)).rejects.toMatchObject({
      code: 'api_key_invalid',
      message: 'The API key was revoked.',
    });
  });

  it('stops accepting a key revoked on this instance at once', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
    const verifier = verifierAt({ now: Date.now() });
    await verifier.verify(tenant.key);
    await revokeApiKey(db.prisma, { id: tenant.keyId });
    verifier.forget(tenant.keyId);
    await expect(verifier.verify(tenant.key)).rejects.toMatchObject({ code: 'api_key_invalid' });
  });

  it('writes last_used_at on first use and then at most once a minute', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
    const start = Date.parse('2026-11-22T10:00:00Z');
    const clock = { now: start };
    const verifier = verifierAt(clock);
    const lastUsed = async () =>
      (await db.prisma.apiKey.findUniqueOrThrow({ where: { id: tenant.keyId } })).last_used_at?.toISOString();
    expect(await lastUsed()).toBeUndefined();
    await verifier.verify(tenant.key);
    expect(await lastUsed()).toBe('2026-11-22T10:00:00.000Z');
    for (const seconds of [10, 30, 59]) {
      clock.now = start + seconds * 1000;
      await verifier.verify(tenant.key);
    }
    expect(await lastUsed()).toBe('2026-11-22T10:00:00.000Z');
    clock.now = start + 61_000;
    await verifier.verify(tenant.key);
    expect(await lastUsed()).toBe('2026-11-22T10:01:01.000Z');
  });

  it('does not write when another instance wrote within the minute', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
    const start = Date.parse('2026-11-22T11:00:00Z');
    await verifierAt({ now: start }).verify(tenant.key);
    await verifierAt({ now: start + 20_000 }).verify(tenant.key); // a second instance, fresh memory
    const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: tenant.keyId } });
    expect(row.last_used_at?.toISOString()).toBe('2026-11-22T11:00:00.000Z');
  });

  it('answers a cached key at once (check), and what verify answers: the same context, the same refusals', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0], scopes: ['things:read'] });
    const start = Date.parse('2026-11-22T12:00:00Z');
    const clock = { now: start };
    const verifier = verifierAt(clock);
    const first = verifier.check(tenant.key);
    expect(first).toBeInstanceOf(Promise); // not cached yet: the database is asked, last_used_at written
    const context = await first;
    clock.now += 1_000;
    const cached = verifier.check(tenant.key);
    expect(cached).not.toBeInstanceOf(Promise);
    expect(cached).toEqual(context);
    expect(await verifier.verify(tenant.key)).toEqual(context);
    clock.now = start + 61_000; // cache expired and last_used_at due: a promise again
    expect(verifier.check(tenant.key)).toBeInstanceOf(Promise);
    expect(() => verifier.check('pm_test_short')).toThrow(expect.objectContaining({ code: 'api_key_invalid' }));
    expect(() => verifier.check(undefined)).toThrow(expect.objectContaining({ code: 'api_key_missing' }));
  });

  it.each([
    ['missing', undefined, 'api_key_missing'],
    ['empty', '', 'api_key_missing'],
    ['malformed', 'pm_test_short', 'api_key_invalid'],
  ])('refuses a %s key', async (_name, header, code) => {
    await expect(verifierAt({ now: Date.now() }).verify(header)).rejects.toMatchObject({ code });
  });

  it('says which environment or service a foreign key belongs to', async () => {
    const live = await createTenant(db.prisma, { service: TEST_SERVICES[0], environment: 'production' });
    const agents = await createTenant(db.prisma, { service: TEST_SERVICES[1] });
    const verifier = verifierAt({ now: Date.now() });
    await expect(verifier.verify(live.key)).rejects.toMatchObject({
      message: 'This is a production key; this is the sandbox environment.',
    });
    await expect(verifier.verify(agents.key)).rejects.toMatchObject({
      message: expect.stringContaining('test service 2'),
    });
  });

  it('keeps known keys cached through a flood of forged keys with valid checksums', async () => {
    const tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
    let lookups = 0;
    const counted = {
      apiKey: {
        ...db.prisma.apiKey,
        findUnique: ((args: never) => (
          lookups++,
          db.prisma.apiKey.findUnique(args)
        )) as typeof db.prisma.apiKey.findUnique,
      },
    };
    const verifier = new KeyVerifier({
      db: counted as never,
      service: TEST_SERVICES[0],
      environment: 'sandbox',
      pepper: TEST_PEPPER,
      cacheSize: 50,
      missCacheSize: 10,
    });
    await verifier.verify(tenant.key);
    expect(lookups).toBe(1);
    for (let i = 0; i < 200; i++)
      await expect(verifier.verify(generateKey(TEST_SERVICES[0].keyPrefix, 'sandbox').plaintext)).rejects.toMatchObject(
        { code: 'api_key_invalid' },
      );
    expect(lookups).toBe(201);
    await verifier.verify(tenant.key); // still cached: no database query
    expect(lookups).toBe(201);
  });

  it('remembers an unknown key for the cache lifetime only', async () => {
    let lookups = 0;
    const counted = {
      apiKey: {
        ...db.prisma.apiKey,
        findUnique: ((args: never) => (
          lookups++,
          db.prisma.apiKey.findUnique(args)
        )) as typeof db.prisma.apiKey.findUnique,
      },
    };
    const clock = { now: Date.now() };
    const verifier = new KeyVerifier({
      db: counted as never,
      service: TEST_SERVICES[0],
      environment: 'sandbox',
      pepper: TEST_PEPPER,
      now: () => clock.now,
    });
    const forged = generateKey(TEST_SERVICES[0].keyPrefix, 'sandbox').plaintext;
    await expect(verifier.verify(forged)).rejects.toMatchObject({ code: 'api_key_invalid' });
    await expect(verifier.verify(forged)).rejects.toMatchObject({ code: 'api_key_invalid' });
    expect(lookups).toBe(1);
    clock.now += 4_000;
    await expect(verifier.verify(forged)).rejects.toMatchObject({ code: 'api_key_invalid' });
    expect(lookups).toBe(2);
  });
});
