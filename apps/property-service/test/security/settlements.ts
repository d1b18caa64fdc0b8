import type { SecurityRoute } from '@platform/testkit';
import { validProperty, type PropertyTestContext } from '../helpers.js';

/** A property with commission terms of the key's account, marked sold: resolves to its settlement's id. */
async function settlement(ctx: PropertyTestContext, key: string): Promise<string> {
  const created = await ctx.send('POST', '/v1/properties', { ...validProperty(), commission: { seller_percent: 3, buyer_percent: 3, engaged_by: 'both' } }, key);
  const id = created.json().id as string;
  await ctx.send('POST', `/v1/properties/${id}/activate`, undefined, key);
  const sold = await ctx.send('POST', `/v1/properties/${id}/mark-sold`, undefined, key);
  if (sold.statusCode !== 200) throw new Error(`not sold: ${sold.statusCode} ${sold.body}`);
  const page = await ctx.send('GET', `/v1/settlements?property_id=${id}`, undefined, key);
  return page.json().data[0].id as string;
}

/** The settlement routes, on a settlement of the tenant and one of another account. */
export async function settlementSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = await settlement(ctx, ctx.tenant.key);
  const theirs = await settlement(ctx, ctx.other.key);
  return [
    { method: 'GET', url: '/v1/settlements', scope: 'commissions:read' },
    { method: 'GET', url: `/v1/settlements/${mine}`, otherTenantUrl: `/v1/settlements/${theirs}`, missingUrl: '/v1/settlements/stl_missing', scope: 'commissions:read' },
  ];
}
