// Readiness names the dependency that fails; a saturated event loop answers 503 at once.
import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestApp, until, type TestApp } from '@platform/testkit';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';

/** Blocks the event loop for `ms`, as a runaway computation would. */
const blockEventLoop = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('GET /health/ready', () => {
  let ctx: TestApp;
  let storageUp = true;

  beforeAll(async () => {
    const nobody = await freePort();
    // Redis away: a connection to a port nobody listens on is refused.
    const redisPing = () =>
      new Promise((resolve, reject) => {
        const socket = createConnection({ host: '127.0.0.1', port: nobody }, () => resolve(socket.end()));
        socket.once('error', reject);
      });
    ctx = await startTestApp(propertyDescriptor, (deps) =>
      buildPropertyApp({
        ...deps,
        readiness: {
          redis: redisPing,
          storage: async () => {
            if (!storageUp) throw new Error('bucket gone');
          },
        },
      }),
    );
  });
  afterAll(() => ctx.close());

  it('is 503 naming Redis when Redis is away, with the database and storage ok', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', redis: 'unavailable', storage: 'ok' },
    });
  });

  it('names every failed dependency, and stays live', async () => {
    storageUp = false;
    const ready = await ctx.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.json().checks).toEqual({ database: 'ok', redis: 'unavailable', storage: 'unavailable' });
    storageUp = true;
    const live = await ctx.app.inject({ method: 'GET', url: '/health/live' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('needs no key and is not logged at info level', async () => {
    const before = ctx.logs.lines.length;
    const res = await ctx.app.inject({ method: 'GET', url: '/health/live', headers: { apikey: 'not-even-a-key' } });
    expect(res.statusCode).toBe(200);
    await ctx.app.inject({ method: 'GET', url: '/v1/properties' }); // logged: the capture works
    const logged = ctx.logs.lines.slice(before).join('');
    expect(logged).toContain('/v1/properties');
    expect(logged).not.toContain('/health');
  });
});

describe('a saturated event loop', () => {
  let ctx: TestApp;

  beforeAll(async () => {
    ctx = await startTestApp(propertyDescriptor, (deps) => buildPropertyApp({ ...deps, maxEventLoopDelayMs: 100 }));
  });
  afterAll(() => ctx.close());

  it('answers 503 service_unavailable with Retry-After at once (German on the leads API), and recovers', async () => {
    const answersNormally = async () => (await ctx.send('GET', '/v1/properties')).statusCode === 200;
    await until(answersNormally, 5_000); // the start-up's own compiling is behind us
    // A runaway computation holds the loop for longer than the guard's one-second sample.
    blockEventLoop(2_500);
    await sleep(5); // the overdue sampler runs first and sees the delay, which then holds for a second
    const res = await ctx.send('GET', '/v1/properties');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ code: 'service_unavailable' });
    const leads = await ctx.send('GET', '/leads/v1/interessenten');
    expect(leads.statusCode).toBe(503);
    expect(leads.json()).toMatchObject({ code: 'dienst_nicht_verfuegbar' });
    await until(answersNormally, 5_000);
  });
});
