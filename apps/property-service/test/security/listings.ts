import type { SecurityRoute } from '@platform/testkit';
import { createChannel, propertyWithPhotos, startListing, type PropertyTestContext } from '../helpers.js';

/** The listing routes, on a property and a listing of the tenant and of another account (no worker: they stay generating). */
export async function listingSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const myProperty = await propertyWithPhotos(ctx);
  const theirProperty = await propertyWithPhotos(ctx, {}, ctx.other.key);
  const mine = (await startListing(ctx, myProperty)).id;
  const theirs = (await startListing(ctx, theirProperty, ctx.other.key)).id;
  const channel = (await createChannel(ctx, 'website')).id;
  const onListing = (
    method: SecurityRoute['method'],
    suffix: string,
    scope: string,
    body?: unknown,
  ): SecurityRoute => ({
    method,
    url: `/v1/listings/${mine}${suffix}`,
    otherTenantUrl: `/v1/listings/${theirs}${suffix}`,
    missingUrl: `/v1/listings/lst_missing${suffix}`,
    scope,
    body,
  });
  return [
    {
      method: 'POST',
      url: `/v1/properties/${myProperty}/listings`,
      otherTenantUrl: `/v1/properties/${theirProperty}/listings`,
      missingUrl: '/v1/properties/prop_missing/listings',
      scope: 'listings:write',
    },
    { method: 'GET', url: '/v1/listings', scope: 'listings:read' },
    onListing('GET', '', 'listings:read'),
    onListing('GET', '/pdf', 'listings:read'),
    onListing('POST', '/publish', 'listings:write', { channels: [channel] }),
    onListing('POST', '/withdraw', 'listings:write', { channels: [channel] }),
    onListing('POST', '/withdraw', 'listings:write'),
  ];
}
