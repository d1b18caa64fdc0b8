import type { SecurityRoute } from '@platform/testkit';
import type { PropertyTestContext } from '../helpers.js';

export const validProspect = () => ({
  nachname: 'Muster',
  email: 'm@example.de',
  einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' },
});

/** Creates a prospect with the key (the tenant's by default); resolves to its id. */
export const createProspect = (ctx: PropertyTestContext, key = ctx.tenant.key) =>
  ctx.send('POST', '/leads/v1/interessenten', validProspect(), key).then((r) => r.json().id as string);

/** The prospect routes, on a prospect of the tenant and one of another account. */
export async function prospectSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = await createProspect(ctx);
  const theirs = await createProspect(ctx, ctx.other.key);
  const record = (method: SecurityRoute['method'], scope: string, body?: unknown, suffix = ''): SecurityRoute => ({
    method,
    url: `/leads/v1/interessenten/${mine}${suffix}`,
    otherTenantUrl: `/leads/v1/interessenten/${theirs}${suffix}`,
    missingUrl: `/leads/v1/interessenten/int_missing${suffix}`,
    scope,
    body,
  });
  return [
    { method: 'POST', url: '/leads/v1/interessenten', scope: 'leads:write', body: validProspect() },
    { method: 'GET', url: '/leads/v1/interessenten', scope: 'leads:read' },
    record('GET', 'leads:read'),
    record('PATCH', 'leads:write', { vorname: 'X' }),
    record('POST', 'leads:write', undefined, '/loeschung'),
  ];
}
