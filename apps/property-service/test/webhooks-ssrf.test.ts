// DNS rebinding end to end, in the production configuration (no private targets): the host name
// resolves to a public address when the endpoint is registered and to 127.0.0.1 when the delivery
// is sent. The connection is refused by the guarded lookup and the attempt is recorded as failed
// with `blocked_address`; nothing reaches the loopback listener.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, until, type TestApp } from '@platform/testkit';
import {
  deliveryDispatcher,
  headerNames,
  startDeliveryWorker,
  startRelay,
  type Resolver,
  type WorkerOptions,
} from '@platform/webhooks';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';
import { validProperty } from './helpers.js';

const dns: Record<string, string[]> = {};
const resolver: Resolver = async (host) => {
  const addresses = dns[host];
  if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

let ctx: TestApp;
let listener: Server;
let port: number;
const connections: Socket[] = [];

beforeAll(async () => {
  ctx = await startTestApp(
    propertyDescriptor,
    (deps) => buildPropertyApp({ ...deps, webhooks: { ...deps.webhooks, resolver } }),
    { allowPrivateTargets: false },
  );
  listener = createServer((socket) => {
    connections.push(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  await ctx.close();
});

describe('a host name that rebinds to loopback after registration', () => {
  it('passes the registration check, then the delivery is blocked at connection time and logged as blocked_address', async () => {
    dns['loopback.example.test'] = ['127.0.0.1'];
    const refused = await ctx.send('POST', '/v1/webhooks', {
      url: `https://loopback.example.test:${port}/hook`,
      events: ['property.created'],
    });
    expect(refused.statusCode).toBe(422); // the same resolver at registration: loopback is refused

    dns['rebind.example.test'] = ['93.184.216.34'];
    const registered = await ctx.send('POST', '/v1/webhooks', {
      url: `https://rebind.example.test:${port}/hook`,
      events: ['property.created'],
    });
    expect(registered.statusCode).toBe(201); // public at registration
    const hook = registered.json();
    dns['rebind.example.test'] = ['127.0.0.1']; // ...and loopback when the delivery is sent

    const { connection, prefix } = ctx.webhooks.queue.opts as Pick<WorkerOptions, 'connection' | 'prefix'>; // the app's Redis and key prefix
    const now = () => new Date();
    const relay = startRelay({ db: ctx.db.prisma, queue: ctx.webhooks.queue, now }, { intervalMs: 20 });
    const worker = startDeliveryWorker(
      {
        db: ctx.db.prisma,
        secrets: ctx.webhooks.secrets,
        headersFor: () => headerNames(propertyDescriptor.webhookHeaderPrefix),
        now,
        dispatcher: deliveryDispatcher(ctx.webhooks.policy, { resolver }),
      },
      { connection, prefix },
    );
    try {
      expect(ctx.webhooks.policy.allowPrivateTargets).toBe(false);
      expect((await ctx.send('POST', '/v1/properties', validProperty())).statusCode).toBe(201);
      const page = await until(async () => {
        const body = (await ctx.send('GET', `/v1/webhooks/${hook.id}/deliveries`)).json();
        // The delivery and its attempts are read by two queries (Prisma's include): wait until both show the attempt.
        return body.data[0]?.attempts.length === 1 && body.data[0].attempt_count === 1 ? body : undefined;
      });
      expect(page.data[0]).toMatchObject({ status: 'pending', attempt_count: 1, next_attempt_at: expect.any(String) }); // a failure: retried on schedule
      expect(page.data[0].attempts[0]).toMatchObject({
        status_code: null,
        error_class: 'blocked_address',
        response_excerpt: null,
      });
      expect(connections).toHaveLength(0);
    } finally {
      await relay.stop();
      await worker.close();
    }
  });
});
