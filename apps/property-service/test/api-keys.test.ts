import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@platform/auth';
import { TEST_PEPPER, addKey, createTenant, startTestApp, whileHeld, type TestApp } from '@platform/testkit';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';

let ctx: PropertyTestContext;
let small: TestApp;
beforeAll(async () => {
  ctx = await startPropertyApp();
  // API_KEYS_PER_APPLICATION=3, as serve hands it in.
  small = await startTestApp(propertyDescriptor, (deps) => buildPropertyApp({ ...deps, apiKeysPerApplication: 3 }));
});
afterAll(async () => {
  await ctx.close();
  await small.close();
});

const call = (method: string, url: string, key: string, payload?: unknown) => ctx.send(method, url, payload, key);

describe('key rotation through /v1/api-keys', () => {
  it('creates a second key, sees last_used_at per key, revokes the old key', async () => {
    const old = await createTenant(ctx.db.prisma, {
      service: propertyDescriptor,
      scopes: ['keys:manage', 'properties:read'],
    });
    await call('GET', '/v1/properties', old.key);

    const created = await call('POST', '/v1/api-keys', old.key, {});
    expect(created.statusCode).toBe(201);
    const fresh = created.json();
    expect(fresh).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^pm_test_[0-9A-Za-z]{38}$/),
      display_prefix: fresh.key.slice(0, 12),
      scopes: ['keys:manage', 'properties:read'],
      created_at: expect.any(String),
      age_days: 0,
      expires_at: null,
      rolled_into: null,
      last_used_at: null,
      revoked_at: null,
    });
    expect((await call('GET', '/v1/properties', fresh.key)).statusCode).toBe(200); // valid at once

    const listed = (await call('GET', '/v1/api-keys', fresh.key)).json();
    expect(listed.data.map((k: { id: string }) => k.id)).toEqual([fresh.id, old.keyId]);
    expect(listed.data.every((k: { last_used_at: string | null }) => k.last_used_at !== null)).toBe(true);
    expect(JSON.stringify(listed)).not.toContain(fresh.key);

    const revoked = await call('DELETE', `/v1/api-keys/${old.keyId}`, fresh.key);
    expect(revoked.statusCode).toBe(204);
    expect((await call('GET', '/v1/properties', old.key)).statusCode).toBe(401);
    expect((await call('DELETE', `/v1/api-keys/${old.keyId}`, fresh.key)).statusCode).toBe(204); // harmless repeat
    const after = (await call('GET', '/v1/api-keys', fresh.key)).json();
    expect(after.data.find((k: { id: string }) => k.id === old.keyId).revoked_at).toEqual(expect.any(String));
  });

  it('grants only scopes the calling key has', async () => {
    const tenant = await createTenant(ctx.db.prisma, {
      service: propertyDescriptor,
      scopes: ['keys:manage', 'properties:read'],
    });
    const res = await call('POST', '/v1/api-keys', tenant.key, { scopes: ['properties:read', 'properties:write'] });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'scope_missing',
      message: expect.any(String),
      details: [{ field: 'properties:write', reason: 'not_granted' }],
    });
    const narrower = await call('POST', '/v1/api-keys', tenant.key, { scopes: ['properties:read'] });
    expect(narrower.statusCode).toBe(201);
    expect(narrower.json().scopes).toEqual(['properties:read']);
  });

  it('refuses unknown scopes and scopes of the other service', async () => {
    const res = await call('POST', '/v1/api-keys', ctx.tenant.key, { scopes: ['agents:read', 'properties:fly'] });
    expect(res.statusCode).toBe(422);
    // Each names the scopes a key of this service may have.
    const allowed = expect.arrayContaining(['properties:read', 'leads:write', 'keys:manage']);
    expect(res.json().details).toMatchObject([
      { field: 'scopes.0', reason: 'not_allowed', constraint: { allowed } },
      { field: 'scopes.1', reason: 'not_allowed', constraint: { allowed } },
    ]);
  });

  it("does not list or revoke another application's keys", async () => {
    const res = await call('DELETE', `/v1/api-keys/${ctx.other.keyId}`, ctx.tenant.key);
    expect(res.statusCode).toBe(404);
    expect((await call('GET', '/v1/properties', ctx.other.key)).statusCode).toBe(200);
    const listed = (await call('GET', '/v1/api-keys', ctx.tenant.key)).json();
    expect(listed.data.some((k: { id: string }) => k.id === ctx.other.keyId)).toBe(false);
  });
});

describe('keys per application', () => {
  const active = (app: TestApp, applicationId: string) =>
    app.db.prisma.apiKey.count({ where: { application_id: applicationId, revoked_at: null } });

  it('are at most 20 by default: the 21st is 409 conflict naming the cap; a revoked key does not count', async () => {
    const tenant = await createTenant(ctx.db.prisma, {
      service: propertyDescriptor,
      scopes: ['keys:manage', 'properties:read'],
    });
    const created: string[] = [];
    for (let i = 1; i < 20; i++) {
      const res = await call('POST', '/v1/api-keys', tenant.key, {});
      expect(res.statusCode).toBe(201);
      created.push(res.json().id);
    }
    const refused = await call('POST', '/v1/api-keys', tenant.key, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'conflict',
      message:
        'An application can have at most 20 active API keys, and this one has 20; revoke one (DELETE /v1/api-keys/{id}) before creating another.',
    });
    expect(await active(ctx, tenant.applicationId)).toBe(20);
    expect((await call('POST', '/v1/api-keys', ctx.tenant.key, {})).statusCode).toBe(201); // another application is not affected

    expect((await call('DELETE', `/v1/api-keys/${created[0]}`, tenant.key)).statusCode).toBe(204);
    expect((await call('POST', '/v1/api-keys', tenant.key, {})).statusCode).toBe(201);
    expect((await call('POST', '/v1/api-keys', tenant.key, {})).statusCode).toBe(409);
    expect(await ctx.db.prisma.apiKey.count({ where: { application_id: tenant.applicationId } })).toBe(21); // 20 active, 1 revoked
  });

  it('follow API_KEYS_PER_APPLICATION, also for concurrent creations', async () => {
    const tenant = await createTenant(small.db.prisma, { service: propertyDescriptor });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => small.send('POST', '/v1/api-keys', {}, tenant.key)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().message).toMatch(
      /^An application can have at most 3 active API keys, and this one has 3; revoke one/,
    );
    expect(await active(small, tenant.applicationId)).toBe(3);
  });

  it('a creation waits for one in flight for the same application, and then counts it (forced interleaving)', async () => {
    const tenant = await createTenant(small.db.prisma, { service: propertyDescriptor });
    await addKey(small.db.prisma, tenant, { service: propertyDescriptor, scopes: propertyDescriptor.scopes });
    // The third key is being created (not yet committed) while two requests ask for a fourth.
    const { result, waited } = await whileHeld(
      small.db,
      (tx) =>
        createApiKey(tx, {
          applicationId: tenant.applicationId,
          service: propertyDescriptor,
          environment: 'sandbox',
          scopes: ['properties:read'],
          pepper: TEST_PEPPER,
          maxKeys: 3,
        }),
      () =>
        Promise.all([
          small.send('POST', '/v1/api-keys', {}, tenant.key),
          small.send('POST', '/v1/api-keys', {}, tenant.key),
        ]),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => r.statusCode)).toEqual([409, 409]);
    expect(await active(small, tenant.applicationId)).toBe(3);
  });
});

describe('logs', () => {
  it('never contain a plaintext key, from the header or the query string', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    await call('GET', '/v1/properties', tenant.key);
    await ctx.app.inject({ method: 'GET', url: `/v1/properties?apikey=${tenant.key}` });
    const created = (await call('POST', '/v1/api-keys', tenant.key, {})).json();
    await call('GET', '/v1/properties/prop_x', 'pm_test_' + 'x'.repeat(38));
    ctx.app.log.info({ req: { headers: { apikey: tenant.key } } }, 'a careless log line');
    expect(ctx.logs.lines.length).toBeGreaterThan(5);
    expect(ctx.logs.text).toContain('/v1/properties?apikey=[REDACTED]');
    expect(ctx.logs.text).not.toContain(tenant.key);
    expect(ctx.logs.text).not.toContain(created.key);
  });
});
