import type { SecurityRoute } from '@platform/testkit';
import type { PropertyTestContext } from '../helpers.js';
import { createProperty } from './properties.js';
import { createProspect } from './prospects.js';

/** The inquiry routes, on an inquiry of the tenant and one of another account (each on a prospect and a property of its own account). */
export async function inquirySecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const inquiry = async (key: string) => {
    const body = { immobilie_id: await createProperty(ctx, key), interessent_id: await createProspect(ctx, key) };
    return { body, id: (await ctx.send('POST', '/leads/v1/anfragen', body, key)).json().id as string };
  };
  const mine = await inquiry(ctx.tenant.key);
  const theirs = await inquiry(ctx.other.key);
  return [
    { method: 'POST', url: '/leads/v1/anfragen', scope: 'leads:write', body: mine.body },
    { method: 'GET', url: '/leads/v1/anfragen', scope: 'leads:read' },
    {
      method: 'GET',
      url: `/leads/v1/anfragen/${mine.id}`,
      otherTenantUrl: `/leads/v1/anfragen/${theirs.id}`,
      missingUrl: '/leads/v1/anfragen/anf_missing',
      scope: 'leads:read',
    },
    {
      method: 'POST',
      url: `/leads/v1/anfragen/${mine.id}/bewertung`,
      otherTenantUrl: `/leads/v1/anfragen/${theirs.id}/bewertung`,
      missingUrl: '/leads/v1/anfragen/anf_missing/bewertung',
      scope: 'leads:write',
    },
  ];
}
