// Amplification limits: endpoints per account (each event fans out to all of them) and test
// events per endpoint and minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, type TestApp } from '@platform/testkit';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let small: TestApp;
beforeAll(async () => {
  ctx = await startPropertyApp();
  // The infrastructure options: a cap of 3 endpoints and 2 test events a minute.
  small = await startTestApp(propertyDescriptor, (deps) =>
    buildPropertyApp({ ...deps, webhooks: { ...deps.webhooks, maxEndpointsPerAccount: 3, testEventsPerMinute: 2 } }),
  );
});
afterAll(async () => {
  await ctx.close();
  await small.close();
});

const hook = { url: 'https://hooks.example.com/x', events: ['property.created'] };

describe('endpoints per account', () => {
  it('are at most 20 by default: the 21st is 422 with a message that says so; a deleted one frees its place', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await ctx.send('POST', '/v1/webhooks', hook, tenant.key);
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    const refused = await ctx.send('POST', '/v1/webhooks', hook, tenant.key);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      code: 'validation_failed',
      message: expect.stringMatching(/at most 20 webhook endpoints.*delete one/),
    });
    expect(
      await ctx.db.prisma.webhookEndpoint.count({ where: { account_id: tenant.accountId, deleted_at: null } }),
    ).toBe(20);
    expect((await ctx.send('POST', '/v1/webhooks', hook)).statusCode).toBe(201); // another account is not affected

    expect((await ctx.send('DELETE', `/v1/webhooks/${ids[0]}`, undefined, tenant.key)).statusCode).toBe(204);
    expect((await ctx.send('POST', '/v1/webhooks', hook, tenant.key)).statusCode).toBe(201);
    expect((await ctx.send('POST', '/v1/webhooks', hook, tenant.key)).statusCode).toBe(422);
  });

  it('follow the configured cap, also for concurrent registrations', async () => {
    const tenant = await createTenant(small.db.prisma, { service: propertyDescriptor });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => small.send('POST', '/v1/webhooks', hook, tenant.key)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 422, 422, 422, 422, 422]);
    expect(await small.db.prisma.webhookEndpoint.count({ where: { account_id: tenant.accountId } })).toBe(3);
    expect(results.find((r) => r.statusCode === 422)!.json().message).toMatch(/at most 3 webhook endpoints/);
  });
});

describe('test events', () => {
  it('are at most 5 a minute per endpoint; then 429 rate_limited with Retry-After until the oldest is a minute old', async () => {
    const a = (await ctx.send('POST', '/v1/webhooks', hook)).json().id;
    const b = (await ctx.send('POST', '/v1/webhooks', hook)).json().id;
    const start = ctx.clock.now;
    const at = (seconds: number) => (ctx.clock.now = new Date(start.getTime() + seconds * 1000));
    for (let i = 0; i < 5; i++) {
      at(i * 5); // 0, 5, 10, 15, 20 s
      expect((await ctx.send('POST', `/v1/webhooks/${a}/test`)).statusCode).toBe(202);
    }
    at(30);
    const limited = await ctx.send('POST', `/v1/webhooks/${a}/test`);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(/At most 5 test events per minute/),
    });
    expect(limited.headers['retry-after']).toBe('30'); // the first one is a minute old at 60 s
    expect((await ctx.send('POST', `/v1/webhooks/${b}/test`)).statusCode).toBe(202); // per endpoint

    at(59);
    expect((await ctx.send('POST', `/v1/webhooks/${a}/test`)).headers['retry-after']).toBe('1');
    at(60.5);
    expect((await ctx.send('POST', `/v1/webhooks/${a}/test`)).statusCode).toBe(202); // the first slot is free again
    expect((await ctx.send('POST', `/v1/webhooks/${a}/test`)).statusCode).toBe(429);
    // Refused requests create nothing: six test deliveries in all.
    expect(await ctx.db.prisma.webhookDelivery.count({ where: { endpoint_id: a } })).toBe(6);
  });

  it('follow the configured limit, also for concurrent requests', async () => {
    const tenant = await createTenant(small.db.prisma, { service: propertyDescriptor });
    const id = (await small.send('POST', '/v1/webhooks', hook, tenant.key)).json().id;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => small.send('POST', `/v1/webhooks/${id}/test`, undefined, tenant.key)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([202, 202, 429, 429, 429, 429]);
    expect(await small.db.prisma.webhookDelivery.count({ where: { endpoint_id: id } })).toBe(2);
  });
});
