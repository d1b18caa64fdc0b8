import { beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@platform/db';
import { generateKey, revokeApiKey, type AuthenticatedRoute, type KeyOwner } from '@platform/auth';
import { addKey, createTenant, otherServiceThan, type Tenant } from './fixtures.js';
import { routeCoverage } from './route-coverage.js';

export interface InjectResponse {
  statusCode: number;
  json(): unknown;
}

export interface SecurityRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path to a record of the suite's tenant (or a collection). */
  url: string;
  /** The route's scope; omitted where the scope follows from the data (webhooks), so no 403 case. */
  scope?: string;
  body?: unknown;
  /** Same route on a record of another account: must be 404 like a missing record. */
  otherTenantUrl?: string;
  /** Same route on an id that does not exist, to compare the 404 bodies. */
  missingUrl?: string;
}

export interface SecurityFixture {
  prisma: PrismaClient;
  /** The service under test (its descriptor). */
  service: KeyOwner;
  dialect: 'en' | 'de';
  inject(request: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    payload?: unknown;
  }): Promise<InjectResponse>;
  /** A tenant with every scope of the service; `routes` point at its records. */
  tenant: Tenant;
  routes: SecurityRoute[];
  /** The app's authenticated routes (`app.authenticatedRoutes`): each must be called by an entry of `routes`. */
  registeredRoutes: readonly AuthenticatedRoute[];
  /** Only the registered routes under this prefix are the suite's (an app with several APIs has a suite per API). */
  prefix?: string;
  /** The app's clock; moved a second before each call on another account's record, so a wrongful write shows in `updated_at`. */
  clock?: { now: Date };
}

const CODES = {
  en: {
    missing: 'api_key_missing',
    invalid: 'api_key_invalid',
    scope: 'scope_missing',
    query: 'api_key_in_query',
    notFound: 'not_found',
  },
  de: {
    missing: 'api_key_fehlt',
    invalid: 'api_key_ungueltig',
    scope: 'scope_fehlt',
    query: 'api_key_in_url',
    notFound: 'nicht_gefunden',
  },
};

/**
 * The shared security suite: every route is called without a key, with bad keys, without its
 * scope and on another tenant's record, and must answer with the documented error bodies.
 */
export function describeSecurity(name: string, setup: () => SecurityFixture) {
  describe(`security: ${name}`, () => {
    let fx: SecurityFixture;
    const keys: Record<string, string> = {};

    beforeAll(async () => {
      fx = setup();
      keys.unknown = generateKey(fx.service.keyPrefix, 'sandbox').plaintext;
      keys.otherService = (await createTenant(fx.prisma, { service: otherServiceThan(fx.service) })).key;
      keys.otherEnvironment = (
        await addKey(fx.prisma, fx.tenant, {
          service: fx.service,
          scopes: fx.service.scopes,
          environment: 'production',
        })
      ).key;
      const revoked = await addKey(fx.prisma, fx.tenant, { service: fx.service, scopes: fx.service.scopes });
      await revokeApiKey(fx.prisma, { id: revoked.id });
      keys.revoked = revoked.key;
    });

    it('calls every authenticated route the app registers, and no other', () => {
      expect(fx.routes.length).toBeGreaterThan(0);
      const registered =
        fx.prefix === undefined
          ? fx.registeredRoutes
          : fx.registeredRoutes.filter((route) => route.url.startsWith(`${fx.prefix}/`));
      const { missing, stale } = routeCoverage(registered, fx.routes);
      expect.soft(missing, `registered routes that no entry of \`routes\` calls: ${missing.join(', ')}`).toEqual([]);
      expect.soft(stale, `entries of \`routes\` that call no registered route: ${stale.join(', ')}`).toEqual([]);
    });

    const call = (route: SecurityRoute, headers: Record<string, string>, url = route.url) =>
      fx.inject({
        method: route.method,
        url,
        headers: { 'content-type': 'application/json', ...headers },
        payload: route.body === undefined ? undefined : JSON.stringify(route.body),
      });

    it('refuses every route without a key (401)', async () => {
      for (const route of fx.routes) {
        const res = await fx.inject({ method: route.method, url: route.url });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        expect((res.json() as { code: string }).code).toBe(CODES[fx.dialect].missing);
      }
    });

    it('refuses malformed, unknown, revoked, other-service and other-environment keys (401)', async () => {
      const tampered = fx.tenant.key.slice(0, -1) + (fx.tenant.key.endsWith('a') ? 'b' : 'a');
      const bad = {
        malformed: 'not-a-key',
        tampered,
        unknown: keys.unknown,
        revoked: keys.revoked,
        otherService: keys.otherService,
        otherEnvironment: keys.otherEnvironment,
      };
      for (const route of fx.routes) {
        for (const [kind, key] of Object.entries(bad)) {
          const res = await call(route, { apikey: key });
          expect(res.statusCode, `${kind} key on ${route.method} ${route.url}`).toBe(401);
          const body = res.json() as { code: string; message: string };
          expect(body.code).toBe(CODES[fx.dialect].invalid);
          if (kind === 'otherEnvironment')
            expect(body.message).toMatch(fx.dialect === 'de' ? /Produktions-Schlüssel/ : /production key/);
          if (fx.dialect === 'de')
            expect(body.message, `${kind} key: German message`).not.toMatch(/\b(the|key|is|not)\b/);
        }
      }
    });

    it('refuses a key in the query string (400)', async () => {
      for (const route of fx.routes) {
        const sep = route.url.includes('?') ? '&' : '?';
        const res = await call(route, {}, `${route.url}${sep}apikey=${fx.tenant.key}`);
        expect(res.statusCode).toBe(400);
        expect((res.json() as { code: string }).code).toBe(CODES[fx.dialect].query);
      }
    });

    it('answers 403 with the exact scope body when the scope is missing', async () => {
      // One key per scope it lacks, not per route: an application's active keys are capped.
      const lacking = new Map<string, string>();
      for (const route of fx.routes.filter((r): r is SecurityRoute & { scope: string } => r.scope !== undefined)) {
        const others = fx.service.scopes.filter((scope) => scope !== route.scope);
        let key = lacking.get(route.scope);
        if (!key)
          lacking.set(
            route.scope,
            (key = (await addKey(fx.prisma, fx.tenant, { service: fx.service, scopes: others })).key),
          );
        const res = await call(route, { apikey: key });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        const body = res.json() as Record<string, unknown>;
        const detail =
          fx.dialect === 'en'
            ? { field: route.scope, reason: 'not_granted' }
            : { feld: route.scope, grund: 'nicht_erteilt' };
        expect(body).toEqual({ code: CODES[fx.dialect].scope, message: expect.any(String), details: [detail] });
      }
    });

    it("answers another account's record exactly like a missing one (404) and changes nothing", async () => {
      const before = await databaseSnapshot(fx.prisma);
      for (const route of fx.routes.filter((r) => r.otherTenantUrl)) {
        if (fx.clock) fx.clock.now = new Date(fx.clock.now.getTime() + 1000);
        const other = await call(route, { apikey: fx.tenant.key }, route.otherTenantUrl);
        expect(other.statusCode, `${route.method} ${route.otherTenantUrl}`).toBe(404);
        expect((other.json() as { code: string }).code).toBe(CODES[fx.dialect].notFound);
        if (route.missingUrl) {
          const missing = await call(route, { apikey: fx.tenant.key }, route.missingUrl);
          expect(missing.statusCode).toBe(404);
          expect(missing.json()).toEqual(other.json());
        }
      }
      expect(await databaseSnapshot(fx.prisma)).toEqual(before);
    });
  });
}

/** Every row of every table (but the key's own `last_used_at`), to prove that nothing changed. */
async function databaseSnapshot(prisma: PrismaClient): Promise<Record<string, string[]>> {
  const tables = await prisma.$queryRawUnsafe<{ name: string }[]>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'",
  );
  const snapshot: Record<string, string[]> = {};
  for (const { name } of tables) {
    const rows = await prisma.$queryRawUnsafe<{ row: string }[]>(
      // When a key or an API version was last used is bookkeeping of the calls themselves (written at most once a minute).
      `SELECT (to_jsonb(t) - 'last_used_at' - 'last_called_at')::text AS row FROM "${name}" t`,
    );
    snapshot[name] = rows.map((r) => r.row).sort();
  }
  return snapshot;
}

/** The webhook routes for the suite, on an endpoint of the tenant and one of another account. */
export function webhookSecurityRoutes(
  mine: string,
  theirs: string,
  newEndpoint: { url: string; events: string[] },
): SecurityRoute[] {
  const on = (method: SecurityRoute['method'], suffix: string, body?: unknown): SecurityRoute => ({
    method,
    url: `/v1/webhooks/${mine}${suffix}`,
    otherTenantUrl: `/v1/webhooks/${theirs}${suffix}`,
    missingUrl: `/v1/webhooks/whk_missing${suffix}`,
    body,
  });
  return [
    { method: 'POST', url: '/v1/webhooks', body: newEndpoint },
    { method: 'GET', url: '/v1/webhooks' },
    { method: 'GET', url: '/v1/event-types' },
    on('GET', ''),
    on('PATCH', '', { description: 'changed' }),
    on('DELETE', ''),
    on('GET', '/deliveries'),
    on('POST', '/deliveries/dlv_missing/retry'),
    on('POST', '/test'),
    on('POST', '/rotate-secret'),
    on('POST', '/redeliveries', { since: '2026-01-01T00:00:00Z' }),
    on('GET', '/redeliveries/rdl_missing'),
  ];
}
