import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  addKey,
  apiKeySecurityRoutes,
  describeSecurity,
  eventSecurityRoutes,
  type SecurityRoute,
} from '@platform/testkit';
import { startAgentPlatformApp, validProfile, type AgentPlatformTestContext } from './helpers.js';
import { accessRequestSecurityRoutes } from './security/access-requests.js';
import { agentSecurityRoutes } from './security/agents.js';
import { artifactSecurityRoutes } from './security/artifacts.js';
import { profileSecurityRoutes } from './security/capability-profiles.js';
import { catalogEntrySecurityRoutes } from './security/catalog-entries.js';
import { chargebackSecurityRoutes } from './security/chargebacks.js';
import { estimateSecurityRoutes } from './security/estimates.js';
import { evaluationSessionSecurityRoutes } from './security/evaluation-sessions.js';
import { webhookEndpointSecurityRoutes } from './security/webhooks.js';
import { agentPlatformDescriptor } from '../src/descriptor.js';

let ctx: AgentPlatformTestContext;
let spareKeyId: string;
const routes: SecurityRoute[] = [];

beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  // The DELETE route points at a spare key, so that a wrong success would not revoke the tenant's own key.
  spareKeyId = (await addKey(ctx.db.prisma, ctx.tenant, { service: agentPlatformDescriptor, scopes: ['agents:read'] }))
    .id;
  routes.push(
    ...(await agentSecurityRoutes(ctx)),
    ...(await artifactSecurityRoutes(ctx)),
    ...(await profileSecurityRoutes(ctx)),
    ...(await accessRequestSecurityRoutes(ctx)),
    ...(await catalogEntrySecurityRoutes(ctx)),
    ...(await evaluationSessionSecurityRoutes(ctx)),
    ...(await estimateSecurityRoutes(ctx)),
    ...(await chargebackSecurityRoutes(ctx)),
    ...apiKeySecurityRoutes(spareKeyId, ctx.other.keyId, { scopes: ['agents:read'] }),
    ...(await webhookEndpointSecurityRoutes(ctx)),
  );
  routes.push(...(await eventSecurityRoutes(ctx, '/v1/events')));
});
afterAll(() => ctx.close());

describeSecurity('agent platform /v1', () => ({
  prisma: ctx.db.prisma,
  service: agentPlatformDescriptor,
  dialect: 'en',
  inject: (request) =>
    ctx.app.inject({ ...request, method: request.method as 'GET', payload: request.payload as string | undefined }),
  tenant: ctx.tenant,
  clock: ctx.clock,
  routes,
  registeredRoutes: ctx.app.authenticatedRoutes,
}));

it("leaves the suite's records untouched: agents active, profiles unchanged, no new request, catalog entry or session, the other account's key and the spare key not revoked", async () => {
  const list = async (url: string, key: string) =>
    ((await ctx.send('GET', url, undefined, key)).json() as { data: Record<string, unknown>[] }).data;
  for (const key of [ctx.tenant.key, ctx.other.key]) {
    const agents = await list('/v1/agents', key);
    expect(agents.length).toBeGreaterThan(0);
    for (const agent of agents) expect(agent).toMatchObject({ status: 'active', description: null });
    const profiles = await list('/v1/capability-profiles', key);
    expect(profiles.length).toBeGreaterThan(0);
    for (const profile of profiles) expect(profile.name).toBe(validProfile().name);
  }
  expect(await ctx.db.prisma.accessRequest.count({ where: { account_id: ctx.tenant.accountId } })).toBe(1);
  for (const { accountId } of [ctx.tenant, ctx.other]) {
    // One entry each, still `generating` (no worker runs here): nothing published or withdrawn.
    expect(
      await ctx.db.prisma.catalogEntry.findMany({ where: { account_id: accountId }, select: { status: true } }),
    ).toEqual([{ status: 'generating' }]);
  }
  for (const { accountId } of [ctx.tenant, ctx.other]) {
    // One proposed session each, at its first time: not confirmed, moved, cancelled or completed.
    expect(
      await ctx.db.prisma.evaluationSession.findMany({
        where: { account_id: accountId },
        select: { status: true, sequence: true },
      }),
    ).toEqual([{ status: 'proposed', sequence: 0 }]);
  }
  expect((await ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: ctx.other.keyId } })).revoked_at).toBeNull();
  expect((await ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: spareKeyId } })).revoked_at).toBeNull();
});
