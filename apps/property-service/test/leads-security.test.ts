import { afterAll, beforeAll } from 'vitest';
import { describeSecurity, eventSecurityRoutes, type SecurityRoute } from '@platform/testkit';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';
import { inquirySecurityRoutes } from './security/inquiries.js';
import { matchingSecurityRoutes } from './security/matching.js';
import { prospectSecurityRoutes } from './security/prospects.js';
import { erasureAuditSecurityRoutes } from './security/erasure-audit.js';
import { outreachSecurityRoutes } from './security/outreach.js';
import { auskunftSecurityRoutes } from './security/auskunft.js';
import { portalInquirySecurityRoutes } from './portal-inquiries-fixtures.js';
import { propertyDescriptor } from '../src/descriptor.js';

let ctx: PropertyTestContext;
const routes: SecurityRoute[] = [];

beforeAll(async () => {
  ctx = await startPropertyApp();
  routes.push(
    ...(await prospectSecurityRoutes(ctx)),
    ...(await inquirySecurityRoutes(ctx)),
    ...(await matchingSecurityRoutes(ctx)),
    ...erasureAuditSecurityRoutes(),
    ...outreachSecurityRoutes(),
    ...(await auskunftSecurityRoutes(ctx)),
    ...portalInquirySecurityRoutes(),
  );
  routes.push(...(await eventSecurityRoutes(ctx, '/leads/v1/ereignisse', 'leads:read')));
});
afterAll(() => ctx.close());

describeSecurity('leads API (German dialect)', () => ({
  prisma: ctx.db.prisma,
  service: propertyDescriptor,
  dialect: 'de',
  inject: (request) => ctx.app.inject(request as never),
  tenant: ctx.tenant,
  clock: ctx.clock,
  routes,
  registeredRoutes: ctx.app.authenticatedRoutes,
  prefix: '/leads/v1',
}));
