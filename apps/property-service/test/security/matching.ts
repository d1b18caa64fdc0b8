import type { SecurityRoute } from '@platform/testkit';
import type { PropertyTestContext } from '../helpers.js';
import { createProperty } from './properties.js';
import { createProspect } from './prospects.js';

/** The matching routes, on a prospect and a property of the tenant and of another account. */
export async function matchingSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const [myProspect, theirProspect] = [await createProspect(ctx), await createProspect(ctx, ctx.other.key)];
  const [myProperty, theirProperty] = [await createProperty(ctx), await createProperty(ctx, ctx.other.key)];
  return [
    {
      method: 'GET',
      url: `/leads/v1/interessenten/${myProspect}/treffer`,
      otherTenantUrl: `/leads/v1/interessenten/${theirProspect}/treffer`,
      missingUrl: '/leads/v1/interessenten/int_missing/treffer',
      scope: 'leads:read',
    },
    {
      method: 'GET',
      url: `/leads/v1/immobilien/${myProperty}/interessenten`,
      otherTenantUrl: `/leads/v1/immobilien/${theirProperty}/interessenten`,
      missingUrl: '/leads/v1/immobilien/prop_missing/interessenten',
      scope: 'leads:read',
    },
  ];
}
