import type { SecurityRoute } from '@platform/testkit';
import type { AgentPlatformTestContext } from '../helpers.js';
import { createAgent } from './agents.js';

/** Generates a catalog entry of a new agent with the key; resolves to the agent and entry ids (the entry stays `generating`: no worker runs). */
async function generateEntry(ctx: AgentPlatformTestContext, key: string): Promise<{ agent: string; entry: string }> {
  const agent = await createAgent(ctx, key);
  const entry = (await ctx.send('POST', `/v1/agents/${agent}/catalog-entries`, undefined, key)).json().id as string;
  return { agent, entry };
}

/** The catalog entry routes and the catalog, on entries of the tenant and of another account. */
export async function catalogEntrySecurityRoutes(ctx: AgentPlatformTestContext): Promise<SecurityRoute[]> {
  const mine = await generateEntry(ctx, ctx.tenant.key);
  const theirs = await generateEntry(ctx, ctx.other.key);
  const onEntry = (method: SecurityRoute['method'], suffix: string, scope: string): SecurityRoute => ({
    method,
    url: `/v1/catalog-entries/${mine.entry}${suffix}`,
    otherTenantUrl: `/v1/catalog-entries/${theirs.entry}${suffix}`,
    missingUrl: `/v1/catalog-entries/cat_missing${suffix}`,
    scope,
  });
  return [
    {
      method: 'POST',
      url: `/v1/agents/${mine.agent}/catalog-entries`,
      otherTenantUrl: `/v1/agents/${theirs.agent}/catalog-entries`,
      missingUrl: '/v1/agents/agt_doesnotexist/catalog-entries',
      scope: 'catalog:write',
    },
    { method: 'GET', url: '/v1/catalog-entries', scope: 'catalog:read' },
    onEntry('GET', '', 'catalog:read'),
    onEntry('GET', '/record', 'catalog:read'),
    onEntry('POST', '/publish', 'catalog:write'),
    onEntry('POST', '/withdraw', 'catalog:write'),
    { method: 'GET', url: '/v1/catalog', scope: 'catalog:read' },
  ];
}
