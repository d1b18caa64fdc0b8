import type { SecurityRoute } from '@platform/testkit';
import type { PropertyTestContext } from '../helpers.js';
import { createProperty } from './properties.js';

/** The valuation routes, on a property of the tenant and one of another account. */
export async function valuationSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = await createProperty(ctx);
  const theirs = await createProperty(ctx, ctx.other.key);
  return ['/valuation', '/comparables'].map((suffix) => ({
    method: 'GET',
    url: `/v1/properties/${mine}${suffix}`,
    otherTenantUrl: `/v1/properties/${theirs}${suffix}`,
    missingUrl: `/v1/properties/prop_missing${suffix}`,
    scope: 'valuations:read',
  }));
}
