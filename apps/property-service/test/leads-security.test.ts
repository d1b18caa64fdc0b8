import { propertyDescriptor } from '../src/descriptor.js';
import { afterAll, beforeAll } from 'vitest';
import { describeSecurity, type SecurityRoute } from '@platform/testkit';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
const routes: SecurityRoute[] = [];
const prospect = { nachname: 'Muster', email: 'm@example.de', einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' } };

beforeAll(async () => {
  ctx = await startPropertyApp();
  const mine = (await ctx.send('POST', '/leads/v1/interessenten', prospect)).json().id;
  const theirs = (await ctx.send('POST', '/leads/v1/interessenten', prospect, ctx.other.key)).json().id;
  const myProperty = (await ctx.send('POST', '/v1/properties', validProperty())).json().id;
  const theirProperty = (await ctx.send('POST', '/v1/properties', validProperty(), ctx.other.key)).json().id;
  const myInquiry = (await ctx.send('POST', '/leads/v1/anfragen', { immobilie_id: myProperty, interessent_id: mine })).json().id;
  const theirInquiry = (await ctx.send('POST', '/leads/v1/anfragen', { immobilie_id: theirProperty, interessent_id: theirs }, ctx.other.key)).json().id;
  const record = (method: SecurityRoute['method'], scope: string, body?: unknown, suffix = ''): SecurityRoute => ({
    method,
    url: `/leads/v1/interessenten/${mine}${suffix}`,
    otherTenantUrl: `/leads/v1/interessenten/${theirs}${suffix}`,
    missingUrl: `/leads/v1/interessenten/int_missing${suffix}`,
    scope,
    body,
  });
  routes.push(
    { method: 'POST', url: '/leads/v1/interessenten', scope: 'leads:write', body: prospect },
    { method: 'GET', url: '/leads/v1/interessenten', scope: 'leads:read' },
    record('GET', 'leads:read'),
    record('PATCH', 'leads:write', { vorname: 'X' }),
    record('POST', 'leads:write', undefined, '/loeschung'),
    record('GET', 'leads:read', undefined, '/treffer'),
    { method: 'POST', url: '/leads/v1/anfragen', scope: 'leads:write', body: { immobilie_id: myProperty, interessent_id: mine } },
    { method: 'GET', url: '/leads/v1/anfragen', scope: 'leads:read' },
    {
      method: 'GET',
      url: `/leads/v1/anfragen/${myInquiry}`,
      otherTenantUrl: `/leads/v1/anfragen/${theirInquiry}`,
      missingUrl: '/leads/v1/anfragen/anf_missing',
      scope: 'leads:read',
    },
    {
      method: 'POST',
      url: `/leads/v1/anfragen/${myInquiry}/bewertung`,
      otherTenantUrl: `/leads/v1/anfragen/${theirInquiry}/bewertung`,
      missingUrl: '/leads/v1/anfragen/anf_missing/bewertung',
      scope: 'leads:write',
    },
    {
      method: 'GET',
      url: `/leads/v1/immobilien/${myProperty}/interessenten`,
      otherTenantUrl: `/leads/v1/immobilien/${theirProperty}/interessenten`,
      missingUrl: '/leads/v1/immobilien/prop_missing/interessenten',
      scope: 'leads:read',
    },
  );
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
}));
