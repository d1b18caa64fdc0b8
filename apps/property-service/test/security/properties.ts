import type { SecurityRoute } from '@platform/testkit';
import { PROPERTY_TRANSITIONS } from '../../src/properties/transitions.js';
import { validProperty, type PropertyTestContext } from '../helpers.js';

/** Creates a property with the key (the tenant's by default); resolves to its id. */
export const createProperty = (ctx: PropertyTestContext, key = ctx.tenant.key) =>
  ctx.send('POST', '/v1/properties', validProperty(), key).then((r) => r.json().id as string);

/** The property routes, on a property of the tenant and one of another account. */
export async function propertySecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = await createProperty(ctx);
  const theirs = await createProperty(ctx, ctx.other.key);
  const onRecord = (method: SecurityRoute['method'], suffix: string, scope: string, body?: unknown): SecurityRoute => ({
    method,
    url: `/v1/properties/${mine}${suffix}`,
    otherTenantUrl: `/v1/properties/${theirs}${suffix}`,
    missingUrl: `/v1/properties/prop_missing${suffix}`,
    scope,
    body,
  });
  return [
    { method: 'POST', url: '/v1/properties', scope: 'properties:write', body: validProperty() },
    { method: 'GET', url: '/v1/properties', scope: 'properties:read' },
    onRecord('GET', '', 'properties:read'),
    onRecord('PATCH', '', 'properties:write', { rooms: 3 }),
    ...Object.keys(PROPERTY_TRANSITIONS).map((action) => onRecord('POST', `/${action}`, 'properties:write')),
  ];
}
