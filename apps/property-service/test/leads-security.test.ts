import { afterAll, beforeAll } from 'vitest';
import { describeSecurity, type SecurityRoute } from '@platform/testkit';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
const routes: SecurityRoute[] = [];
const prospect = { nachname: 'Muster', email: 'm@example.de', einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' } };

beforeAll(async () => {
  ctx = await startPropertyApp();
  const mine = (await ctx.send('POST', '/leads/v1/interessenten', prospect)).json().id;
  const theirs = (await ctx.send('POST', '/leads/v1/interessenten', prospect, ctx.other.key)).json().id;
  const record = (method: SecurityRoute['method'], scope: string, body?: unknown): SecurityRoute => ({
    method,
    url: `/leads/v1/interessenten/${mine}`,
    otherTenantUrl: `/leads/v1/interessenten/${theirs}`,
    missingUrl: '/leads/v1/interessenten/int_missing',
    scope,
    body,
  });
  routes.push(
    { method: 'POST', url: '/leads/v1/interessenten', scope: 'leads:write', body: prospect },
    { method: 'GET', url: '/leads/v1/interessenten', scope: 'leads:read' },
    record('GET', 'leads:read'),
    record('PATCH', 'leads:write', { vorname: 'X' }),
  );
});
afterAll(() => ctx.close());

describeSecurity('leads API (German dialect)', () => ({
  prisma: ctx.db.prisma,
  service: 'property',
  dialect: 'de',
  inject: (request) => ctx.app.inject(request as never),
  tenant: ctx.tenant,
  clock: ctx.clock,
  routes,
}));
