import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, defineService } from '@platform/service';
import { TEST_SERVICES, addKey, createTenant, startTestApp, type TestApp } from '@platform/testkit';

const service = defineService({
  ...TEST_SERVICES[0],
  webhookHeaderPrefix: 'Test',
  events: [{ type: 'thing.created', description: 'A thing.', scope: 'things:read', data: Type.Object({}) }],
  jobs: [],
  port: { variable: 'TEST_PORT', default: 0, description: 'unused' },
  settings: [],
  loggedQueryParameters: [],
});

const MAX_KEYS = 3;
let ctx: TestApp;
beforeAll(async () => {
  ctx = await startTestApp(service, (deps) =>
    createServiceApp(
      { ...deps, apiKeysPerApplication: MAX_KEYS, maxEventLoopDelayMs: 0 },
      {
        service,
        document: { prefix: '/v1', title: 'Test API', description: 'Test API' },
        routes: async (v1) => {
          v1.get('/things', { config: { scope: 'things:read' } }, async () => ({ data: [] }));
        },
      },
    ),
  );
});
afterAll(() => ctx?.close());

const HOUR = 3_600_000;
const roll = (keyId: string, key: string, body: unknown) => ctx.send('POST', `/v1/api-keys/${keyId}/roll`, body, key);
const things = (key: string) => ctx.send('GET', '/v1/things', undefined, key);
const later = (ms: number) => (ctx.clock.now = new Date(ctx.clock.now.getTime() + ms));
const tenantWithKey = () => createTenant(ctx.db.prisma, { service, scopes: ['keys:manage', 'things:read'] });

describe('POST /v1/api-keys/{keyId}/roll', () => {
  it('creates the successor with the same scopes and lets the old key work until its expiry, then answers 401 naming when it expired', async () => {
    const tenant = await tenantWithKey();
    const res = await roll(tenant.keyId, tenant.key, { expires_in_hours: 24 });
    expect(res.statusCode).toBe(201);
    const rolled = res.json();
    expect(rolled).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.any(String),
      display_prefix: rolled.key.slice(0, 12),
      scopes: ['keys:manage', 'things:read'],
      created_at: expect.any(String),
      age_days: 0,
      last_used_at: null,
      revoked_at: null,
      expires_at: null,
      rolled_into: null,
      previous: expect.objectContaining({ id: tenant.keyId, rolled_into: rolled.id, revoked_at: null }),
    });
    const expiresAt = Date.parse(rolled.previous.expires_at);
    expect(expiresAt - Date.parse(rolled.created_at)).toBe(24 * HOUR);
    expect((await things(rolled.key)).statusCode).toBe(200);
    expect((await things(tenant.key)).statusCode).toBe(200); // still, for 24 hours

    ctx.clock.now = new Date(expiresAt - 1);
    expect((await things(tenant.key)).statusCode).toBe(200);
    ctx.clock.now = new Date(expiresAt);
    const refused = await things(tenant.key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      code: 'api_key_invalid',
      message: `The API key expired at ${new Date(expiresAt).toISOString()}.`,
    });
    expect((await things(rolled.key)).statusCode).toBe(200);
  });

  it('with 0 hours the old key stops at once (after a leak)', async () => {
    const tenant = await tenantWithKey();
    expect((await things(tenant.key)).statusCode).toBe(200); // cached by the verifier
    const res = await roll(tenant.keyId, tenant.key, { expires_in_hours: 0 });
    expect(res.statusCode).toBe(201);
    expect(res.json().previous.expires_at).toBe(res.json().created_at);
    later(1);
    expect((await things(tenant.key)).json()).toMatchObject({
      code: 'api_key_invalid',
      message: /^The API key expired at /,
    });
    expect((await things(res.json().key)).statusCode).toBe(200);
  });

  it('refuses more than 168 hours, a missing expiry, and an unknown field with 422 naming the rule', async () => {
    const tenant = await tenantWithKey();
    const tooLong = await roll(tenant.keyId, tenant.key, { expires_in_hours: 169 });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().details).toEqual([
      expect.objectContaining({ field: 'expires_in_hours', reason: 'out_of_range' }),
    ]);
    expect(JSON.stringify(tooLong.json())).toContain('168');
    const missing = await roll(tenant.keyId, tenant.key, {});
    expect(missing.json().details).toEqual([expect.objectContaining({ field: 'expires_in_hours', reason: 'missing' })]);
    for (const bad of [-1, 1.5, '24'])
      expect((await roll(tenant.keyId, tenant.key, { expires_in_hours: bad })).statusCode, String(bad)).toBe(422);
    expect(await ctx.db.prisma.apiKey.count({ where: { application_id: tenant.applicationId } })).toBe(1);
  });

  it("answers another account's key exactly like a missing one, and refuses a revoked or expired key with 409", async () => {
    const tenant = await tenantWithKey();
    const other = await tenantWithKey();
    const theirs = await roll(other.keyId, tenant.key, { expires_in_hours: 1 });
    const missing = await roll('key_missing', tenant.key, { expires_in_hours: 1 });
    expect([theirs.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(theirs.json()).toEqual(missing.json());
    expect(await ctx.db.prisma.apiKey.findUnique({ where: { id: other.keyId } })).toMatchObject({ expires_at: null });

    const spare = await addKey(ctx.db.prisma, tenant, { service, scopes: ['things:read'] });
    await ctx.send('DELETE', `/v1/api-keys/${spare.id}`, undefined, tenant.key);
    const revoked = await roll(spare.id, tenant.key, { expires_in_hours: 1 });
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json().message).toMatch(/was revoked at .*; create a new key instead/);

    const first = (await roll(tenant.keyId, tenant.key, { expires_in_hours: 1 })).json();
    await ctx.db.prisma.apiKey.update({ where: { id: tenant.keyId }, data: { expires_at: new Date(Date.now() - 1) } });
    const expired = await roll(tenant.keyId, first.key, { expires_in_hours: 1 });
    expect(expired.statusCode).toBe(409);
    expect(expired.json().message).toMatch(/was expired at /);
  });

  it('a second roll of the same key keeps the sooner expiry', async () => {
    const tenant = await tenantWithKey();
    const first = (await roll(tenant.keyId, tenant.key, { expires_in_hours: 2 })).json();
    const second = await roll(tenant.keyId, first.key, { expires_in_hours: 100 });
    expect(second.statusCode).toBe(201);
    expect(second.json().previous.expires_at).toBe(first.previous.expires_at);
    expect(second.json().previous.rolled_into).toBe(second.json().id);
  });

  it('a roll at the key limit succeeds (the rolled key does not count); a second successor beyond it is 409', async () => {
    const tenant = await tenantWithKey();
    for (let i = 1; i < MAX_KEYS; i++) await addKey(ctx.db.prisma, tenant, { service, scopes: ['things:read'] });
    expect((await ctx.send('POST', '/v1/api-keys', {}, tenant.key)).statusCode).toBe(409);
    const first = await roll(tenant.keyId, tenant.key, { expires_in_hours: 2 });
    expect(first.statusCode).toBe(201);
    const second = await roll(tenant.keyId, first.json().key, { expires_in_hours: 2 });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/at most 3 active API keys/);
  });
});

describe('key age and expiry in the key resource', () => {
  it('lists created_at, age_days and expires_at; a key may be created with an expiry', async () => {
    const tenant = await tenantWithKey();
    await ctx.db.prisma.apiKey.update({
      where: { id: tenant.keyId },
      data: { created_at: new Date(Date.now() - 91 * 24 * HOUR - 1) },
    });
    const temporary = await ctx.send('POST', '/v1/api-keys', { expires_in_hours: 48 }, tenant.key);
    expect(temporary.statusCode).toBe(201);
    const listed = (await ctx.send('GET', '/v1/api-keys', undefined, tenant.key)).json().data;
    const byId = Object.fromEntries(listed.map((k: { id: string }) => [k.id, k]));
    expect(byId[tenant.keyId]).toMatchObject({ age_days: 91, expires_at: null });
    expect(byId[temporary.json().id]).toMatchObject({ age_days: 0, expires_at: expect.any(String) });
    expect(Date.parse(byId[temporary.json().id].expires_at) - Date.parse(byId[temporary.json().id].created_at)).toBe(
      48 * HOUR,
    );
    const tooLong = await ctx.send('POST', '/v1/api-keys', { expires_in_hours: 0 }, tenant.key);
    expect(tooLong.statusCode).toBe(422);
  });
});
