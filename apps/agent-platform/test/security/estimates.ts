import type { SecurityRoute } from '@platform/testkit';
import type { AgentPlatformTestContext } from '../helpers.js';
import { createAgent } from './agents.js';
import { createProfile } from './capability-profiles.js';

const usage = {
  records: [
    {
      client_id: 'security-1',
      team: 'Accounts payable',
      quantity: 1,
      unit: 'per_1k_tokens',
      occurred_at: '2026-01-01T00:00:00Z',
    },
  ],
};

/** Usage, cost-estimate and comparables routes, on an agent and a profile of the tenant and of another account. */
export async function estimateSecurityRoutes(ctx: AgentPlatformTestContext): Promise<SecurityRoute[]> {
  const [mine, theirs] = [await createAgent(ctx), await createAgent(ctx, ctx.other.key)];
  const [myProfile, theirProfile] = [await createProfile(ctx), await createProfile(ctx, ctx.other.key)];
  const agentRoute = (method: SecurityRoute['method'], path: string, scope: string, body?: unknown): SecurityRoute => ({
    method,
    url: `/v1/agents/${mine}/${path}`,
    scope,
    body,
    otherTenantUrl: `/v1/agents/${theirs}/${path}`,
    missingUrl: `/v1/agents/agt_doesnotexist/${path}`,
  });
  return [
    agentRoute('POST', 'usage', 'agents:write', usage),
    agentRoute('GET', 'cost-estimate?quantity=10&unit=per_1k_tokens', 'estimates:read'),
    agentRoute('GET', 'comparables', 'estimates:read'),
    {
      method: 'GET',
      url: `/v1/cost-estimates?profile_id=${myProfile}`,
      scope: 'estimates:read',
      otherTenantUrl: `/v1/cost-estimates?profile_id=${theirProfile}`,
      missingUrl: '/v1/cost-estimates?profile_id=cap_doesnotexist',
    },
  ];
}
