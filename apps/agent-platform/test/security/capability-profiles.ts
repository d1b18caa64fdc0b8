import type { SecurityRoute } from '@platform/testkit';
import { validProfile, type AgentPlatformTestContext } from '../helpers.js';

/** Creates a capability profile with the key (the tenant's by default); resolves to its id. */
export const createProfile = (ctx: AgentPlatformTestContext, key = ctx.tenant.key) =>
  ctx.send('POST', '/v1/capability-profiles', validProfile(), key).then((r) => r.json().id as string);

/** The capability-profile routes, on a profile of the tenant and one of another account. */
export async function profileSecurityRoutes(ctx: AgentPlatformTestContext): Promise<SecurityRoute[]> {
  const mine = await createProfile(ctx);
  const theirs = await createProfile(ctx, ctx.other.key);
  return [
    { method: 'POST', url: '/v1/capability-profiles', scope: 'requests:write', body: validProfile() },
    { method: 'GET', url: '/v1/capability-profiles', scope: 'requests:read' },
    {
      method: 'GET',
      url: `/v1/capability-profiles/${mine}`,
      scope: 'requests:read',
      otherTenantUrl: `/v1/capability-profiles/${theirs}`,
      missingUrl: '/v1/capability-profiles/cap_doesnotexist',
    },
    {
      method: 'PATCH',
      url: `/v1/capability-profiles/${mine}`,
      scope: 'requests:write',
      body: { name: 'changed' },
      otherTenantUrl: `/v1/capability-profiles/${theirs}`,
      missingUrl: '/v1/capability-profiles/cap_doesnotexist',
    },
  ];
}
