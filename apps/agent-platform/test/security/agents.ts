import type { SecurityRoute } from '@platform/testkit';
import { validAgent, type AgentPlatformTestContext } from '../helpers.js';

/** Creates an agent with the key (the tenant's by default); resolves to its id. */
export const createAgent = (ctx: AgentPlatformTestContext, key = ctx.tenant.key) =>
  ctx.send('POST', '/v1/agents', validAgent(), key).then((r) => r.json().id as string);

/** The agent routes, on an agent of the tenant and one of another account. */
export async function agentSecurityRoutes(ctx: AgentPlatformTestContext): Promise<SecurityRoute[]> {
  const mine = await createAgent(ctx);
  const theirs = await createAgent(ctx, ctx.other.key);
  return [
    { method: 'POST', url: '/v1/agents', scope: 'agents:write', body: validAgent() },
    { method: 'GET', url: '/v1/agents', scope: 'agents:read' },
    {
      method: 'GET',
      url: `/v1/agents/${mine}`,
      scope: 'agents:read',
      otherTenantUrl: `/v1/agents/${theirs}`,
      missingUrl: '/v1/agents/agt_doesnotexist',
    },
    {
      method: 'PATCH',
      url: `/v1/agents/${mine}`,
      scope: 'agents:write',
      body: { description: 'changed' },
      otherTenantUrl: `/v1/agents/${theirs}`,
      missingUrl: '/v1/agents/agt_doesnotexist',
    },
    {
      method: 'POST',
      url: `/v1/agents/${mine}/retire`,
      scope: 'agents:write',
      otherTenantUrl: `/v1/agents/${theirs}/retire`,
      missingUrl: '/v1/agents/agt_doesnotexist/retire',
    },
  ];
}
