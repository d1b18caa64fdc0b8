import { afterAll, beforeAll, expect, it } from 'vitest';
import { addKey, describeSecurity, webhookSecurityRoutes } from '@platform/testkit';
import { startAgentApp, validAgent, type AgentTestContext } from './helpers.js';

let ctx: AgentTestContext;
let mine: string;
let theirs: string;
let spareKeyId: string;
let myHook: string;
let theirHook: string;

beforeAll(async () => {
  ctx = await startAgentApp();
  const create = (key: string) => ctx.app.inject({ method: 'POST', url: '/v1/agents', headers: { apikey: key }, payload: validAgent() });
  mine = (await create(ctx.tenant.key)).json().id;
  theirs = (await create(ctx.other.key)).json().id;
  // The DELETE route points at a spare key, so that a wrong success would not revoke the tenant's own key.
  spareKeyId = (await addKey(ctx.db.prisma, ctx.tenant, { service: 'agents', scopes: ['agents:read'] })).id;
  const hook = { url: 'https://hooks.example.com/x', events: ['agent.created'] };
  myHook = (await ctx.send('POST', '/v1/webhooks', hook)).json().id;
  theirHook = (await ctx.send('POST', '/v1/webhooks', hook, ctx.other.key)).json().id;
});
afterAll(() => ctx.close());

describeSecurity('agent platform /v1', () => ({
  prisma: ctx.db.prisma,
  service: 'agents',
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
  expect((await ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: ctx.other.keyId } })).revoked_at).toBeNull();
  expect((await ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: spareKeyId } })).revoked_at).toBeNull();
});
