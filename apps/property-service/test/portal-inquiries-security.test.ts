import { afterAll, beforeAll } from 'vitest';
import { describeSecurity } from '@platform/testkit';
import { propertyDescriptor } from '../src/descriptor.js';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';
import { portalInquirySecurityRoutes } from './portal-inquiries-fixtures.js';

// The import in the shared security suite on its own (leads-security.test.ts runs it with every leads route).
let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

describeSecurity('OpenImmo-Feedback import (German dialect)', () => ({
  prisma: ctx.db.prisma,
  service: propertyDescriptor,
  dialect: 'de',
  inject: (request) => ctx.app.inject(request as never),
  tenant: ctx.tenant,
  clock: ctx.clock,
  routes: portalInquirySecurityRoutes(),
  registeredRoutes: ctx.app.authenticatedRoutes.filter((route) => route.url.endsWith('/anfragen/openimmo-feedback')),
  prefix: '/leads/v1',
}));
