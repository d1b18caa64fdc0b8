import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openApiSnapshot } from '@platform/testkit';
import { startAgentPlatformApp, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
});
afterAll(() => ctx.close());

it('/v1/openapi.json is byte-identical to the committed openapi/agent-platform-api.json', async () => {
  const file = fileURLToPath(new URL('../../../openapi/agent-platform-api.json', import.meta.url));
  const snapshot = await openApiSnapshot(ctx.app, '/v1/openapi.json', file);
  expect(snapshot.committed, snapshot.difference).not.toBeNull();
  expect(snapshot.actual === snapshot.committed, snapshot.difference).toBe(true);
});
