import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startReceiver, until, type Receiver } from '@platform/testkit';
import { verifySignature } from '@platform/webhooks';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';
import { propertyDescriptor } from '../src/descriptor.js';

let ctx: PropertyTestContext;
let receiver: Receiver;
let stopWorkers: () => Promise<void>;

beforeAll(async () => {
  ctx = await startPropertyApp();
  receiver = await startReceiver();
  stopWorkers = await ctx.startWebhookDelivery();
});
afterAll(async () => {
  await stopWorkers();
  await receiver.close();
  await ctx.close();
});

const register = (body: object, key = ctx.tenant.key) => ctx.send('POST', '/v1/webhooks', body, key);

describe('POST /v1/webhooks', () => {
  it('registers an endpoint and shows the signing secret once, stored encrypted', async () => {
    const res = await register({ url: `${receiver.url}/a`, events: ['property.created'], description: 'CRM sync' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^whk_/),
      url: `${receiver.url}/a`,
      events: ['property.created'],
      description: 'CRM sync',
      status: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      paused_at: null,
      last_success_at: null,
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const row = await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: body.id } });
    expect(row.secret_encrypted).not.toContain(body.signing_secret);
    expect(ctx.webhooks.secrets.decrypt(row.secret_encrypted)).toBe(body.signing_secret);
    expect((await ctx.send('GET', `/v1/webhooks/${body.id}`)).json()).not.toHaveProperty('signing_secret');
    const list = (await ctx.send('GET', '/v1/webhooks')).json();
    expect(JSON.stringify(list)).not.toContain(body.signing_secret);
    expect(ctx.logs.text).not.toContain(body.signing_secret);
    await ctx.send('DELETE', `/v1/webhooks/${body.id}`);
  });

  it.each([
    [
      { url: 'https://hooks.example.com/x', events: ['property.exploded'] },
      { field: 'events.0', reason: 'not_allowed' },
    ],
    [
      { url: 'https://hooks.example.com/x', events: [] },
      { field: 'events', reason: 'out_of_range' },
    ],
    [{ url: 'https://hooks.example.com/x' }, { field: 'events', reason: 'missing' }],
    [
      { url: 'not a url', events: ['property.created'] },
      { field: 'url', reason: 'invalid_format' },
    ],
    [
      { url: 'file:///etc/passwd', events: ['property.created'] },
      { field: 'url', reason: 'not_allowed' },
    ],
    [
      { url: 'https://hooks.example.com/x', events: ['property.created', 'property.created'] },
      { field: 'events', reason: 'invalid_format' },
    ],
    [
      { url: 'https://hooks.example.com/x', events: ['property.created'], secret: 'mine' },
      { field: 'secret', reason: 'unknown_field' },
    ],
  ])('refuses %j with 422', async (body, detail) => {
    const res = await register(body);
    expect(res.statusCode).toBe(422);
    // One detail; a schema rule's constraint and message come with it (tested in packages/http).
    expect(res.json().details).toMatchObject([detail]);
  });

  it('lets a key subscribe only to events whose data it may read', async () => {
    const reader = await createTenant(ctx.db.prisma, { service: propertyDescriptor, scopes: ['properties:read'] });
    const res = await register(
      { url: `${receiver.url}/x`, events: ['property.created', 'listing.completed', 'inquiry.scored'] },
      reader.key,
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'scope_missing',
      message: expect.any(String),
      details: [
        { field: 'listings:read', reason: 'not_granted' },
        { field: 'leads:read', reason: 'not_granted' },
      ],
    });
    expect((await register({ url: `${receiver.url}/x`, events: ['property.created'] }, reader.key)).statusCode).toBe(
      201,
    );
  });

  it("answers another account's webhook with 404", async () => {
    const theirs = (
      await register({ url: `${receiver.url}/other`, events: ['property.created'] }, ctx.other.key)
    ).json();
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['GET', '/deliveries'],
      ['POST', '/test'],
      ['POST', '/rotate-secret'],
    ]) {
      const res = await ctx.send(
        method,
        `/v1/webhooks/${theirs.id}${suffix}`,
        method === 'PATCH' ? { description: 'x' } : undefined,
      );
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
    await ctx.send('DELETE', `/v1/webhooks/${theirs.id}`, undefined, ctx.other.key);
  });
});

describe('SSRF guard in the production configuration', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://localhost/hook',
    'http://hooks.example.com/hook',
    'file:///etc/passwd',
  ])('refuses %s at registration', async (url) => {
    const prod = await startPropertyApp({ allowPrivateTargets: false });
    try {
      const res = await prod.send('POST', '/v1/webhooks', { url, events: ['property.created'] });
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toEqual([
        { field: 'url', reason: expect.stringMatching(/not_allowed|invalid_format/) },
      ]);
    } finally {
      await prod.close();
    }
  });
});

describe('events from property changes', () => {
  it('delivers property.created, .updated and .archived, signed, with ids and no personal data', async () => {
    const hook = (
      await register({
        url: `${receiver.url}/events`,
        events: ['property.created', 'property.updated', 'property.archived'],
      })
    ).json();
    const property = (await ctx.send('POST', '/v1/properties', validProperty())).json();
    await ctx.send('PATCH', `/v1/properties/${property.id}`, {
      purchase_price_eur: 399000,
      address: { city: 'Potsdam' },
    });
    await ctx.send('POST', `/v1/properties/${property.id}/archive`);
    const got = await receiver.waitFor(3, '/events');
    const bodies = got.map((r) => {
      expect(verifySignature(r.raw, String(r.headers['x-service-signature']), hook.signing_secret)).toEqual({
        valid: true,
        timestamp: expect.any(Number),
      });
      return JSON.parse(r.raw.toString());
    });
    const byType = Object.fromEntries(bodies.map((b) => [b.type, b]));
    expect(byType['property.created'].data).toEqual({ property_id: property.id, status: 'draft', type: 'apartment' });
    expect(byType['property.updated'].data).toEqual({
      property_id: property.id,
      changed_fields: ['address.city', 'purchase_price_eur'],
    });
    expect(byType['property.archived'].data).toEqual({ property_id: property.id, status: 'archived' });
    expect(JSON.stringify(bodies)).not.toContain('Parkstraße');
    expect(got.map((r) => r.headers['x-service-event']).sort()).toEqual([
      'property.archived',
      'property.created',
      'property.updated',
    ]);
  });

  it('emits nothing for a patch that changes nothing', async () => {
    const property = (await ctx.send('POST', '/v1/properties', validProperty())).json();
    const before = await ctx.db.prisma.outboxEvent.count({ where: { type: 'property.updated' } });
    await ctx.send('PATCH', `/v1/properties/${property.id}`, { rooms: property.rooms });
    expect(await ctx.db.prisma.outboxEvent.count({ where: { type: 'property.updated' } })).toBe(before);
  });
});

describe('operations', () => {
  it('logs attempts, retries a failed delivery by hand with the same event id, and filters by status', async () => {
    receiver.respond = (req, res) =>
      req.path === '/flaky' ? res.writeHead(500).end('boom') : res.writeHead(200).end('ok');
    await until(async () => (await ctx.db.prisma.outboxEvent.count({ where: { relayed_at: null } })) === 0); // earlier events are out
    const hook = (await register({ url: `${receiver.url}/flaky`, events: ['property.created'] })).json();
    await ctx.send('POST', '/v1/properties', validProperty());
    const [first] = await receiver.waitFor(1, '/flaky');
    const listed = await until(async () => {
      const page = (await ctx.send('GET', `/v1/webhooks/${hook.id}/deliveries?status=pending`)).json();
      return page.data[0]?.attempts.length === 1 ? page : undefined;
    });
    const delivery = listed.data[0];
    expect(delivery.attempts[0]).toEqual({
      attempted_at: expect.any(String),
      status_code: 500,
      duration_ms: expect.any(Number),
      error_class: 'http_status',
      response_excerpt: 'boom',
    });
    expect(delivery.next_attempt_at).not.toBeNull();

    receiver.respond = (_req, res) => res.writeHead(200).end('ok');
    const retried = await ctx.send('POST', `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/retry`);
    expect(retried.statusCode).toBe(202);
    const [, second] = await receiver.waitFor(2, '/flaky');
    expect(JSON.parse(second.raw.toString()).id).toBe(JSON.parse(first.raw.toString()).id);
    expect(second.headers['x-service-delivery']).toBe(delivery.id);
    const done = await until(async () => {
      const page = (await ctx.send('GET', `/v1/webhooks/${hook.id}/deliveries?status=succeeded`)).json();
      return page.data.length === 1 ? page : undefined;
    });
    expect(done.data[0].attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
    expect((await ctx.send('GET', `/v1/webhooks/${hook.id}`)).json().last_success_at).not.toBeNull();
  });

  it('sends a signed test event to one endpoint', async () => {
    const hook = (await register({ url: `${receiver.url}/test-me`, events: ['property.archived'] })).json();
    const res = await ctx.send('POST', `/v1/webhooks/${hook.id}/test`);
    expect(res.statusCode).toBe(202);
    const [got] = await receiver.waitFor(1, '/test-me');
    expect(JSON.parse(got.raw.toString())).toMatchObject({
      id: res.json().event_id,
      type: 'webhook.test',
      data: { webhook_id: hook.id },
    });
    expect(verifySignature(got.raw, String(got.headers['x-service-signature']), hook.signing_secret).valid).toBe(true);
  });

  it('rotates the secret: for 24 h deliveries carry two v1 values, old and new both verify', async () => {
    const hook = (await register({ url: `${receiver.url}/rotate`, events: ['property.archived'] })).json();
    const rotated = (await ctx.send('POST', `/v1/webhooks/${hook.id}/rotate-secret`)).json();
    expect(rotated.signing_secret).not.toBe(hook.signing_secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    await ctx.send('POST', `/v1/webhooks/${hook.id}/test`);
    const [got] = await receiver.waitFor(1, '/rotate');
    const header = String(got.headers['x-service-signature']);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifySignature(got.raw, header, hook.signing_secret).valid).toBe(true);
    expect(verifySignature(got.raw, header, rotated.signing_secret).valid).toBe(true);
  });

  it('pauses and resumes by PATCH; paused endpoints get no attempts', async () => {
    await until(async () => (await ctx.db.prisma.outboxEvent.count({ where: { relayed_at: null } })) === 0);
    const hook = (await register({ url: `${receiver.url}/paused`, events: ['property.created'] })).json();
    expect((await ctx.send('PATCH', `/v1/webhooks/${hook.id}`, { status: 'paused' })).json()).toMatchObject({
      status: 'paused',
      paused_at: expect.any(String),
    });
    await ctx.send('POST', '/v1/properties', validProperty());
    await until(
      async () =>
        (await ctx.db.prisma.webhookDelivery.count({ where: { endpoint_id: hook.id, status: 'held' } })) === 1,
    );
    expect((await ctx.send('POST', `/v1/webhooks/${hook.id}/test`)).statusCode).toBe(409);
    expect(receiver.received.filter((r) => r.path === '/paused')).toHaveLength(0);
    expect((await ctx.send('PATCH', `/v1/webhooks/${hook.id}`, { status: 'active' })).json().status).toBe('active');
    await receiver.waitFor(1, '/paused');
  });

  it('lists the event catalogue with scopes and data schemas', async () => {
    const res = (await ctx.send('GET', '/v1/event-types')).json();
    expect(res.data.map((e: { type: string }) => e.type)).toEqual([
      'property.created',
      'property.updated',
      'property.archived',
      'listing.completed',
      'listing.published',
      'channel.feed_token_rotated',
      'portal_transfer.succeeded',
      'portal_transfer.failed',
      'inquiry.received',
      'inquiry.scored',
      'consent.withdrawn',
      'prospect.restricted',
      'prospect.restriction_lifted',
      'prospect.objected',
      'prospect.matched',
      'appointment.confirmed',
      'appointment.cancelled',
      'settlement.created',
      'invoice.credited',
    ]);
    const listing = res.data.find((e: { type: string }) => e.type === 'listing.completed');
    expect(listing.scope).toBe('listings:read');
    expect(Object.keys(listing.data_schema.properties)).toEqual(['listing_id', 'property_id', 'status', 'pdf_url']);
    const rotated = res.data.find((e: { type: string }) => e.type === 'channel.feed_token_rotated');
    expect(Object.keys(rotated.data_schema.properties)).toEqual(['channel_id', 'name', 'type', 'rotated_at']);
  });
});
