import type { SecurityRoute } from '@platform/testkit';
import { validProfile, type AgentPlatformTestContext } from '../helpers.js';
import { createAgent } from './agents.js';
import { createProfile } from './capability-profiles.js';

/** The access-request routes, on a request of the tenant and one of another account (each for an agent and a profile of its own account). */
export async function accessRequestSecurityRoutes(ctx: AgentPlatformTestContext): Promise<SecurityRoute[]> {
  const accessRequest = async (key: string) => {
    const [agent_id, profile_id] = [await createAgent(ctx, key), await createProfile(ctx, key)];
    const body = { agent_id, profile_id, team: validProfile().team, purpose: 'Security suite.' };
    return { agent_id, profile_id, id: (await ctx.send('POST', '/v1/access-requests', body, key)).json().id as string };
  };
  const mine = await accessRequest(ctx.tenant.key);
  const theirs = await accessRequest(ctx.other.key);
  return [
    {
      method: 'POST',
      url: '/v1/access-requests',
      scope: 'requests:write',
      body: { agent_id: mine.agent_id, profile_id: mine.profile_id, team: validProfile().team, purpose: 'x' },
    },
    { method: 'GET', url: '/v1/access-requests', scope: 'requests:read' },
    {
      method: 'GET',
      url: `/v1/access-requests/${mine.id}`,
      scope: 'requests:read',
      otherTenantUrl: `/v1/access-requests/${theirs.id}`,
      missingUrl: '/v1/access-requests/req_doesnotexist',
    },
    {
      method: 'GET',
      url: `/v1/access-requests/${mine.id}/score`,
      scope: 'requests:read',
      otherTenantUrl: `/v1/access-requests/${theirs.id}/score`,
      missingUrl: '/v1/access-requests/req_doesnotexist/score',
    },
    {
      method: 'POST',
      url: `/v1/access-requests/${mine.id}/score`,
      scope: 'requests:write',
      otherTenantUrl: `/v1/access-requests/${theirs.id}/score`,
      missingUrl: '/v1/access-requests/req_doesnotexist/score',
    },
  ];
}
