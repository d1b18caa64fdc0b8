import { webhookSecurityRoutes, type SecurityRoute } from '@platform/testkit';
import type { PropertyTestContext } from '../helpers.js';

/** The webhook routes, on an endpoint of the tenant and one of another account. */
export async function webhookEndpointSecurityRoutes(ctx: PropertyTestContext): Promise<SecurityRoute[]> {
  const hook = { url: 'https://hooks.example.com/x', events: ['property.created'] };
  const mine = (await ctx.send('POST', '/v1/webhooks', hook)).json().id;
  const theirs = (await ctx.send('POST', '/v1/webhooks', hook, ctx.other.key)).json().id;
  return webhookSecurityRoutes(mine, theirs, hook);
}
