import { afterAll, beforeAll } from 'vitest';
import { apiKeySecurityRoutes, describeSecurity, eventSecurityRoutes, type SecurityRoute } from '@platform/testkit';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';
import { appointmentSecurityRoutes } from './security/appointments.js';
import { channelSecurityRoutes } from './security/channels.js';
import { listingSecurityRoutes } from './security/listings.js';
import { mediaSecurityRoutes } from './security/media.js';
import { propertySecurityRoutes } from './security/properties.js';
import { invoiceSecurityRoutes, settlementSecurityRoutes } from './security/settlements.js';
import { valuationSecurityRoutes } from './security/valuations.js';
import { webhookEndpointSecurityRoutes } from './security/webhooks.js';
import { propertyDescriptor } from '../src/descriptor.js';

let ctx: PropertyTestContext;
const routes: SecurityRoute[] = [];

beforeAll(async () => {
  ctx = await startPropertyApp();
  routes.push(
    ...(await propertySecurityRoutes(ctx)),
    ...(await mediaSecurityRoutes(ctx)),
    ...apiKeySecurityRoutes(ctx.tenant.keyId, ctx.other.keyId, {}),
    ...(await webhookEndpointSecurityRoutes(ctx)),
    ...(await listingSecurityRoutes(ctx)),
    ...(await channelSecurityRoutes(ctx)),
    ...(await appointmentSecurityRoutes(ctx)),
    ...(await valuationSecurityRoutes(ctx)),
    ...(await settlementSecurityRoutes(ctx)),
    ...(await invoiceSecurityRoutes(ctx)),
  );
  routes.push(...(await eventSecurityRoutes(ctx, '/v1/events')));
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
  registeredRoutes: ctx.app.authenticatedRoutes,
  prefix: '/v1',
}));
