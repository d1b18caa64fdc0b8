import { propertyDescriptor } from '../src/descriptor.js';
import { afterAll, beforeAll } from 'vitest';
import { describeSecurity, webhookSecurityRoutes, type SecurityRoute } from '@platform/testkit';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';
import { PROPERTY_TRANSITIONS } from '../src/properties/transitions.js';

let ctx: PropertyTestContext;
const routes: SecurityRoute[] = [];

beforeAll(async () => {
  ctx = await startPropertyApp();
  const create = (key: string) =>
    ctx.app.inject({ method: 'POST', url: '/v1/properties', headers: { apikey: key }, payload: validProperty() }).then((r) => r.json().id as string);
  const mine = await create(ctx.tenant.key);
  const theirs = await create(ctx.other.key);
  const onRecord = (method: SecurityRoute['method'], suffix: string, scope: string, body?: unknown): SecurityRoute => ({
    method,
    url: `/v1/properties/${mine}${suffix}`,
    otherTenantUrl: `/v1/properties/${theirs}${suffix}`,
    missingUrl: `/v1/properties/prop_missing${suffix}`,
    scope,
    body,
  });
  const theirKey = (await ctx.db.prisma.apiKey.findFirstOrThrow({ where: { application_id: ctx.other.applicationId } })).id;
  const hook = { url: 'https://hooks.example.com/x', events: ['property.created'] };
  const myHook = (await ctx.send('POST', '/v1/webhooks', hook)).json().id;
  const theirHook = (await ctx.send('POST', '/v1/webhooks', hook, ctx.other.key)).json().id;
  routes.push(
    { method: 'POST', url: '/v1/properties', scope: 'properties:write', body: validProperty() },
    { method: 'GET', url: '/v1/properties', scope: 'properties:read' },
    onRecord('GET', '', 'properties:read'),
    onRecord('PATCH', '', 'properties:write', { rooms: 3 }),
    ...Object.keys(PROPERTY_TRANSITIONS).map((action) => onRecord('POST', `/${action}`, 'properties:write')),
    { method: 'GET', url: '/v1/api-keys', scope: 'keys:manage' },
    { method: 'POST', url: '/v1/api-keys', scope: 'keys:manage', body: {} },
    { method: 'DELETE', url: `/v1/api-keys/${ctx.tenant.keyId}`, otherTenantUrl: `/v1/api-keys/${theirKey}`, missingUrl: '/v1/api-keys/key_missing', scope: 'keys:manage' },
    ...webhookSecurityRoutes(myHook, theirHook, hook),
  );
});
afterAll(() => ctx.close());

describeSecurity('property API', () => ({
  prisma: ctx.db.prisma,
  service: propertyDescriptor,
  dialect: 'en',
  inject: (request) => ctx.app.inject(request as never),
  tenant: ctx.tenant,
  clock: ctx.clock,
  routes,
}));
