import type { SecurityRoute } from '@platform/testkit';
import type { PropertyTestContext } from '../helpers.js';

export const validProspect = () => ({
  nachname: 'Muster',
  email: 'm@example.de',
  einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' },
});

/** A consent to marketing given on the phone (no double opt-in). */
const consentInput = { zweck: 'marketing', quelle: 'telefon', erteilt_am: '2026-11-02T10:00:00Z', textversion: 'v1' };

/** Creates a prospect with the key (the tenant's by default); resolves to its id. */
export const createProspect = (ctx: PropertyTestContext, key = ctx.tenant.key) =>
  ctx.send('POST', '/leads/v1/interessenten', validProspect(), key).then((r) => r.json().id as string);

/** The prospect routes, on a prospect of the tenant and one of another account. */
export async function prospectSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = await createProspect(ctx);
  const theirs = await createProspect(ctx, ctx.other.key);
  const firstConsent = (id: string, key: string) =>
    ctx
      .send('GET', `/leads/v1/interessenten/${id}/einwilligungen`, undefined, key)
      .then((r) => r.json().daten[0].id as string);
  const myConsent = await firstConsent(mine, ctx.tenant.key);
  const theirConsent = await firstConsent(theirs, ctx.other.key);
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
    record('GET', 'leads:read', undefined, '/einwilligungen'),
    record('POST', 'leads:write', consentInput, '/einwilligungen'),
    record('POST', 'leads:write', undefined, '/einschraenkung'),
    record('DELETE', 'leads:write', undefined, '/einschraenkung'),
    record('POST', 'leads:write', undefined, '/widerspruch'),
    ...(['bestaetigung', 'widerruf'] as const).map((action): SecurityRoute => ({
      method: 'POST',
      url: `/leads/v1/interessenten/${mine}/einwilligungen/${myConsent}/${action}`,
      // another account's consent under its own prospect, and under ours: both exactly like a missing one
      otherTenantUrl: `/leads/v1/interessenten/${theirs}/einwilligungen/${theirConsent}/${action}`,
      missingUrl: `/leads/v1/interessenten/int_missing/einwilligungen/ein_missing/${action}`,
      scope: 'leads:write',
    })),
    {
      method: 'POST',
      url: `/leads/v1/interessenten/${mine}/einwilligungen/${myConsent}/widerruf`,
      otherTenantUrl: `/leads/v1/interessenten/${mine}/einwilligungen/${theirConsent}/widerruf`,
      missingUrl: `/leads/v1/interessenten/${mine}/einwilligungen/ein_missing/widerruf`,
      scope: 'leads:write',
    },
  ];
}
