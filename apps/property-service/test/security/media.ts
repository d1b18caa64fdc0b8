import type { SecurityRoute } from '@platform/testkit';
import { png } from '@platform/uploads/testing';
import type { PropertyTestContext } from '../helpers.js';
import { photoParts, uploadMedia } from '../media-helpers.js';
import { createProperty } from './properties.js';

/** The property media routes, on media of the tenant and of another account. */
export async function mediaSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = await createProperty(ctx);
  const theirs = await createProperty(ctx, ctx.other.key);
  const myMedia = (await uploadMedia(ctx, mine, photoParts(png(2, 2)))).json().id as string;
  const theirMedia = (await uploadMedia(ctx, theirs, photoParts(png(2, 2)), ctx.other.key)).json().id as string;
  const collection = (method: SecurityRoute['method'], scope: string): SecurityRoute => ({
    method,
    url: `/v1/properties/${mine}/media`,
    otherTenantUrl: `/v1/properties/${theirs}/media`,
    missingUrl: '/v1/properties/prop_missing/media',
    scope,
  });
  const onMedia = (method: SecurityRoute['method'], suffix: string, scope: string, body?: unknown): SecurityRoute => ({
    method,
    url: `/v1/properties/${mine}/media/${myMedia}${suffix}`,
    otherTenantUrl: `/v1/properties/${theirs}/media/${theirMedia}${suffix}`,
    missingUrl: `/v1/properties/${theirs}/media/med_missing${suffix}`,
    scope,
    body,
  });
  return [
    // The suite sends a JSON body: the upload answers 401/403/404 before it reads a body at all.
    collection('POST', 'properties:write'),
    collection('GET', 'properties:read'),
    onMedia('GET', '', 'properties:read'),
    onMedia('GET', '/content', 'properties:read'),
    onMedia('GET', '/renditions/large', 'properties:read'),
    onMedia('PATCH', '', 'properties:write', { title: 'changed' }),
    onMedia('DELETE', '', 'properties:write'),
    // Their media under my property is missing as well.
    { ...onMedia('GET', '', 'properties:read'), otherTenantUrl: `/v1/properties/${mine}/media/${theirMedia}` },
  ];
}
