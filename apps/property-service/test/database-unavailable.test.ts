import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrisma, type PrismaClient } from '@platform/db';
import { startTestApp, type TestApp } from '@platform/testkit';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';

// A "database" that accepts connections and never answers, as a hung server or a black-holed network does.
const sockets: Socket[] = [];
let hanging: Server;
let deadDb: PrismaClient;
let ctx: TestApp;

beforeAll(async () => {
  hanging = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  deadDb = createPrisma({
    url: `postgresql://u:p@127.0.0.1:${(hanging.address() as AddressInfo).port}/x`,
    connectionTimeoutMs: 300,
  });
  ctx = await startTestApp(propertyDescriptor, (deps) => buildPropertyApp({ ...deps, db: deadDb }));
});
afterAll(async () => {
  await ctx.close();
  await deadDb.$disconnect().catch(() => {});
  for (const socket of sockets) socket.destroy();
  hanging.close();
});

it('answers 503 with Retry-After, in the error shape, when the database does not answer in time', async () => {
  const started = Date.now();
  const res = await ctx.send('GET', '/v1/properties');
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(res.statusCode).toBe(503);
  expect(res.headers).toMatchObject({
    'retry-after': '5',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  expect(res.json()).toEqual({
    code: 'service_unavailable',
    message: 'The service is briefly unavailable; try again shortly.',
  });
});

it('says so in German on the leads API', async () => {
  const res = await ctx.send('GET', '/leads/v1/interessenten');
  expect(res.statusCode).toBe(503);
  expect(res.json()).toEqual({
    code: 'dienst_nicht_verfuegbar',
    message: 'Der Dienst ist kurz nicht verfügbar; bitte gleich noch einmal versuchen.',
  });
});
