import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, startTestApp, type TestApp } from '@platform/testkit';
import { createDeliveryQueue } from '@platform/webhooks';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';

let ctx: TestApp;
let queue: ReturnType<typeof createDeliveryQueue>;

beforeAll(async () => {
  queue = createDeliveryQueue({ host: '127.0.0.1', port: await freePort(), maxRetriesPerRequest: null });
  queue.on('error', () => {}); // it keeps trying to connect; that is the point
  ctx = await startTestApp(propertyDescriptor, (deps) =>
    buildPropertyApp({ ...deps, webhooks: { ...deps.webhooks, queue } }),
  );
});
afterAll(async () => {
  await ctx.close();
  // closing waits for a connection that never comes: give it a moment, no more
  await Promise.race([queue.close(), new Promise((resolve) => setTimeout(resolve, 500))]);
});

/** The call answers within a bound although the queue is unreachable. */
async function timed(method: string, url: string, payload?: object) {
  const started = Date.now();
  const res = await ctx.send(method, url, payload);
  expect(Date.now() - started, `${method} ${url}`).toBeLessThan(3_000);
  return res;
}

it('registers, sends a test event, retries a delivery and resumes an endpoint while Redis is down', async () => {
  const hook = (
    await timed('POST', '/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['property.created'] })
  ).json();
  const test = await timed('POST', `/v1/webhooks/${hook.id}/test`);
  expect(test.statusCode).toBe(202);
  const retry = await timed('POST', `/v1/webhooks/${hook.id}/deliveries/${test.json().delivery_id}/retry`);
  expect(retry.statusCode).toBe(202);
  await ctx.db.prisma.webhookEndpoint.update({
    where: { id: hook.id },
    data: { status: 'paused', paused_at: new Date() },
  });
  const resume = await timed('PATCH', `/v1/webhooks/${hook.id}`, { status: 'active' });
  expect(resume.statusCode).toBe(200);
  // the deliveries wait for the relay, marked, not lost
  const marked = await ctx.db.prisma.webhookDelivery.findMany({ where: { endpoint_id: hook.id } });
  expect(marked.map((d) => [d.status, d.requeue_at !== null])).toEqual([['pending', true]]);
});
