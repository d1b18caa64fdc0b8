import type { SecurityRoute } from '@platform/testkit';
import type { PropertyTestContext } from '../helpers.js';
import { createProspect } from './prospects.js';

/** The Auskunft (JSON and PDF) on a prospect of the tenant and one of another account, and the log of exports. */
export async function auskunftSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = await createProspect(ctx);
  const theirs = await createProspect(ctx, ctx.other.key);
  const auskunft = (suffix: string): SecurityRoute => ({
    method: 'GET',
    url: `/leads/v1/interessenten/${mine}/auskunft${suffix}`,
    otherTenantUrl: `/leads/v1/interessenten/${theirs}/auskunft${suffix}`,
    missingUrl: `/leads/v1/interessenten/int_missing/auskunft${suffix}`,
    scope: 'leads:export',
  });
  return [auskunft(''), auskunft('/pdf'), { method: 'GET', url: '/leads/v1/auskunftsprotokoll', scope: 'leads:read' }];
}
