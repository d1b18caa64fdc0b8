import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openApiSnapshot } from '@platform/testkit';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const committed = (name: string) => fileURLToPath(new URL(`../../../openapi/${name}`, import.meta.url));

it.each([
  ['/v1/openapi.json', 'property-api.json'],
  ['/leads/v1/openapi.json', 'leads-api.json'],
  ['/public/v1/openapi.json', 'public-feeds-api.json'],
])('%s is byte-identical to the committed openapi/%s', async (url, file) => {
  const snapshot = await openApiSnapshot(ctx.app, url, committed(file));
  expect(snapshot.committed, snapshot.difference).not.toBeNull();
  expect(snapshot.actual === snapshot.committed, snapshot.difference).toBe(true);
});
