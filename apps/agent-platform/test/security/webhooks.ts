import { webhookSecurityRoutes, type SecurityRoute } from '@platform/testkit';
import type { AgentPlatformTestContext } from '../helpers.js';

/** The webhook routes, on an endpoint of the tenant and one of another account. */
export async function webhookEndpointSecurityRoutes(ctx: AgentPlatformTestContext): Promise<SecurityRoute[]> {
  const hook = { url: 'https://hooks.example.com/x', events: ['agent.created'] };
  const mine = (await ctx.send('POST', '/v1/webhooks', hook)).json().id;
  const theirs = (await ctx.send('POST', '/v1/webhooks', hook, ctx.other.key)).json().id;
  return webhookSecurityRoutes(mine, theirs, { url: 'https://hooks.example.com/y', events: ['agent.created'] });
}
