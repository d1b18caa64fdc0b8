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
  const file = fileURLToPath(new URL('../openapi/agent-platform-api.json', import.meta.url));
  const { actual, committed } = await openApiSnapshot(ctx.app, '/v1/openapi.json', file);
  expect(committed, 'openapi/agent-platform-api.json is missing; write it with UPDATE_OPENAPI=1').not.toBeNull();
  expect(actual).toBe(committed);
});
