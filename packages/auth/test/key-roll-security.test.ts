import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll } from 'vitest';
import { createServiceApp, defineService } from '@platform/service';
import {
  TEST_SERVICES,
  apiKeySecurityRoutes,
  describeSecurity,
  startTestApp,
  type SecurityRoute,
  type TestApp,
} from '@platform/testkit';

// The key routes, the roll among them, through the shared security suite (no key, bad keys, a
// missing scope, another account's key answered like a missing one, nothing changed).
const service = defineService({
  ...TEST_SERVICES[0],
  webhookHeaderPrefix: 'Test',
  events: [{ type: 'thing.created', description: 'A thing.', scope: 'things:read', data: Type.Object({}) }],
  jobs: [],
  port: { variable: 'TEST_PORT', default: 0, description: 'unused' },
  settings: [],
  loggedQueryParameters: [],
});

let ctx: TestApp;
const routes: SecurityRoute[] = [];
beforeAll(async () => {
  ctx = await startTestApp(service, (deps) =>
    createServiceApp(
      { ...deps, maxEventLoopDelayMs: 0 },
      { service, document: { prefix: '/v1', title: 'Test API', description: 'Test API' }, routes: async () => {} },
    ),
  );
  // The routes under /v1/api-keys/ (the collection's GET and POST are in each app's suite).
  const revoke = apiKeySecurityRoutes(ctx.tenant.keyId, ctx.other.keyId, {}).filter((r) => r.method === 'DELETE');
  routes.push(...revoke, {
    method: 'POST',
    url: `/v1/api-keys/${ctx.tenant.keyId}/roll`,
    otherTenantUrl: `/v1/api-keys/${ctx.other.keyId}/roll`,
    missingUrl: '/v1/api-keys/key_missing/roll',
    scope: 'keys:manage',
    body: { expires_in_hours: 168 },
  });
});
afterAll(() => ctx?.close());

describeSecurity('API key routes', () => ({
  prisma: ctx.db.prisma,
  service,
  dialect: 'en',
  inject: (request) => ctx.app.inject(request as never),
  tenant: ctx.tenant,
  clock: ctx.clock,
  routes,
  registeredRoutes: ctx.app.authenticatedRoutes,
  prefix: '/v1/api-keys',
}));
