import type { SecurityRoute } from '@platform/testkit';
import type { AgentPlatformTestContext } from '../helpers.js';
import { artifactParts, uploadArtifact } from '../artifact-helpers.js';
import { createAgent } from './agents.js';

/** The artifact routes, on artifacts of the tenant and of another account. */
export async function artifactSecurityRoutes(ctx: AgentPlatformTestContext): Promise<SecurityRoute[]> {
  const mine = await createAgent(ctx);
  const theirs = await createAgent(ctx, ctx.other.key);
  const file = (who: string) => artifactParts(Buffer.from(`# Model card of ${who}\n`), 'text/markdown', 'card.md');
  const myArtifact = (await uploadArtifact(ctx, mine, file('mine'))).json().id as string;
  const theirArtifact = (await uploadArtifact(ctx, theirs, file('theirs'), ctx.other.key)).json().id as string;
  const collection = (method: SecurityRoute['method'], scope: string): SecurityRoute => ({
    method,
    url: `/v1/agents/${mine}/artifacts`,
    otherTenantUrl: `/v1/agents/${theirs}/artifacts`,
    missingUrl: '/v1/agents/agt_doesnotexist/artifacts',
    scope,
  });
  const onArtifact = (
    method: SecurityRoute['method'],
    suffix: string,
    scope: string,
    body?: unknown,
  ): SecurityRoute => ({
    method,
    url: `/v1/agents/${mine}/artifacts/${myArtifact}${suffix}`,
    otherTenantUrl: `/v1/agents/${theirs}/artifacts/${theirArtifact}${suffix}`,
    missingUrl: `/v1/agents/${theirs}/artifacts/art_missing${suffix}`,
    scope,
    body,
  });
  return [
    // The suite sends a JSON body: the upload answers 401/403/404 before it reads a body at all.
    collection('POST', 'agents:write'),
    collection('GET', 'agents:read'),
    onArtifact('GET', '', 'agents:read'),
    onArtifact('GET', '/content', 'agents:read'),
    onArtifact('PATCH', '', 'agents:write', { version: 'v9' }),
    onArtifact('DELETE', '', 'agents:write'),
    { ...onArtifact('GET', '', 'agents:read'), otherTenantUrl: `/v1/agents/${mine}/artifacts/${theirArtifact}` },
  ];
}
