import type { SecurityRoute } from '@platform/testkit';
import { createChannel, type PropertyTestContext } from '../helpers.js';

/** The channel routes, on a channel of the tenant and one of another account. */
export async function channelSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const mine = (await createChannel(ctx, 'website')).id;
  const theirs = (await createChannel(ctx, 'website', undefined, ctx.other.key)).id;
  const onChannel = (method: SecurityRoute['method'], scope: string, body?: unknown, suffix = ''): SecurityRoute => ({
    method,
    url: `/v1/channels/${mine}${suffix}`,
    otherTenantUrl: `/v1/channels/${theirs}${suffix}`,
    missingUrl: `/v1/channels/chan_missing${suffix}`,
    scope,
    body,
  });
  return [
    { method: 'POST', url: '/v1/channels', scope: 'listings:write', body: { type: 'openimmo', name: 'Portal' } },
    { method: 'GET', url: '/v1/channels', scope: 'listings:read' },
    onChannel('GET', 'listings:read'),
    onChannel('PATCH', 'listings:write', {
      name: 'Renamed',
      contact: { name: 'Vermietung', email: 'vermietung@example.de' },
    }),
    onChannel('POST', 'listings:write', undefined, '/rotate-feed-token'),
    // A portal channel's transfers (a website channel answers 409 to the right key; the suite needs no success).
    onChannel('GET', 'listings:read', undefined, '/portal-status'),
    onChannel('GET', 'listings:read', undefined, '/transfers'),
    onChannel('POST', 'listings:write', undefined, '/retransfer'),
    onChannel('DELETE', 'listings:write'),
  ];
}
