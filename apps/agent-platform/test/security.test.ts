import { agentPlatformDescriptor } from '../src/descriptor.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addKey, describeSecurity, webhookSecurityRoutes } from '@platform/testkit';
import { startAgentApp, validAgent, validProfile, type AgentTestContext } from './helpers.js';

let ctx: AgentTestContext;
let mine: string;
let theirs: string;
let spareKeyId: string;
let myHook: string;
let theirHook: string;
let myProfile: string;
let theirProfile: string;
let myRequest: string;
let theirRequest: string;

beforeAll(async () => {
  ctx = await startAgentApp();
  const create = (key: string) => ctx.app.inject({ method: 'POST', url: '/v1/agents', headers: { apikey: key }, payload: validAgent() });
  mine = (await create(ctx.tenant.key)).json().id;
  theirs = (await create(ctx.other.key)).json().id;
  // The DELETE route points at a spare key, so that a wrong success would not revoke the tenant's own key.
  spareKeyId = (await addKey(ctx.db.prisma, ctx.tenant, { service: agentPlatformDescriptor, scopes: ['agents:read'] })).id;
  const profile = (key: string) => ctx.app.inject({ method: 'POST', url: '/v1/capability-profiles', headers: { apikey: key }, payload: validProfile() });
  myProfile = (await profile(ctx.tenant.key)).json().id;
  theirProfile = (await profile(ctx.other.key)).json().id;
  const accessRequest = (key: string, agent_id: string, profile_id: string) =>
    ctx.app.inject({ method: 'POST', url: '/v1/access-requests', headers: { apikey: key }, payload: { agent_id, profile_id, team: validProfile().team, purpose: 'Security suite.' } });
  myRequest = (await accessRequest(ctx.tenant.key, mine, myProfile)).json().id;
  theirRequest = (await accessRequest(ctx.other.key, theirs, theirProfile)).json().id;
  const hook = { url: 'https://hooks.example.com/x', events: ['agent.created'] };
  myHook = (await ctx.send('POST', '/v1/webhooks', hook)).json().id;
  theirHook = (await ctx.send('POST', '/v1/webhooks', hook, ctx.other.key)).json().id;
});
afterAll(() => ctx.close());

describeSecurity('agent platform /v1', () => ({
  prisma: ctx.db.prisma,
  service: agentPlatformDescriptor,
  dialect: 'en',
  inject: (request) => ctx.app.inject({ ...request, method: request.method as 'GET', payload: request.payload as string | undefined }),
  tenant: ctx.tenant,
  clock: ctx.clock,
  routes: [
    { method: 'POST', url: '/v1/agents', scope: 'agents:write', body: validAgent() },
    { method: 'GET', url: '/v1/agents', scope: 'agents:read' },
    { method: 'GET', url: `/v1/agents/${mine}`, scope: 'agents:read', otherTenantUrl: `/v1/agents/${theirs}`, missingUrl: '/v1/agents/agt_doesnotexist' },
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
    { method: 'POST', url: '/v1/capability-profiles', scope: 'requests:write', body: validProfile() },
    { method: 'GET', url: '/v1/capability-profiles', scope: 'requests:read' },
    {
      method: 'GET',
      url: `/v1/capability-profiles/${myProfile}`,
      scope: 'requests:read',
      otherTenantUrl: `/v1/capability-profiles/${theirProfile}`,
      missingUrl: '/v1/capability-profiles/cap_doesnotexist',
    },
    {
      method: 'PATCH',
      url: `/v1/capability-profiles/${myProfile}`,
      scope: 'requests:write',
      body: { name: 'changed' },
      otherTenantUrl: `/v1/capability-profiles/${theirProfile}`,
      missingUrl: '/v1/capability-profiles/cap_doesnotexist',
    },
    { method: 'POST', url: '/v1/access-requests', scope: 'requests:write', body: { agent_id: mine, profile_id: myProfile, team: validProfile().team, purpose: 'x' } },
    { method: 'GET', url: '/v1/access-requests', scope: 'requests:read' },
    {
      method: 'GET',
      url: `/v1/access-requests/${myRequest}`,
      scope: 'requests:read',
      otherTenantUrl: `/v1/access-requests/${theirRequest}`,
      missingUrl: '/v1/access-requests/req_doesnotexist',
    },
    {
      method: 'GET',
      url: `/v1/access-requests/${myRequest}/score`,
      scope: 'requests:read',
      otherTenantUrl: `/v1/access-requests/${theirRequest}/score`,
      missingUrl: '/v1/access-requests/req_doesnotexist/score',
    },
    {
      method: 'POST',
      url: `/v1/access-requests/${myRequest}/score`,
      scope: 'requests:write',
      otherTenantUrl: `/v1/access-requests/${theirRequest}/score`,
      missingUrl: '/v1/access-requests/req_doesnotexist/score',
    },
    { method: 'GET', url: '/v1/api-keys', scope: 'keys:manage' },
    { method: 'POST', url: '/v1/api-keys', scope: 'keys:manage', body: { scopes: ['agents:read'] } },
    {
      method: 'DELETE',
      url: `/v1/api-keys/${spareKeyId}`,
      scope: 'keys:manage',
      otherTenantUrl: `/v1/api-keys/${ctx.other.keyId}`,
      missingUrl: '/v1/api-keys/key_doesnotexist',
    },
    ...webhookSecurityRoutes(myHook, theirHook, { url: 'https://hooks.example.com/y', events: ['agent.created'] }),
  ],
}));

it("leaves the suite's records untouched: own agent active, the other account's agent and key unchanged", async () => {
  const get = (url: string, key: string) => ctx.app.inject({ method: 'GET', url, headers: { apikey: key } });
  expect((await get(`/v1/agents/${mine}`, ctx.tenant.key)).json()).toMatchObject({ status: 'active', description: null });
  expect((await get(`/v1/agents/${theirs}`, ctx.other.key)).json()).toMatchObject({ status: 'active', description: null });
  expect((await get(`/v1/capability-profiles/${myProfile}`, ctx.tenant.key)).json().name).toBe(validProfile().name);
  expect((await ctx.db.prisma.accessRequest.count({ where: { account_id: ctx.tenant.accountId } }))).toBe(1);
  expect((await ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: ctx.other.keyId } })).revoked_at).toBeNull();
  expect((await ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: spareKeyId } })).revoked_at).toBeNull();
});
