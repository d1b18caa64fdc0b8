// The client against a real HTTP server that answers like the services: headers sent, cursor
// iteration across pages, and the error classes of both dialects.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createLeadsClient,
  createPropertyClient,
  idempotencyKey,
  LeadsApiError,
  unwrap,
} from '../src/index.js';

const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
let server: Server;
let baseUrl: string;
const KEY = 'pm_test_0123456789abcdefghijABCDEFGHIJ0123456';

const property = (id: string) => ({ id, title: `Property ${id}`, status: 'active' });

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const url = new URL(req.url!, 'http://x');
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      if (url.pathname === '/v1/properties' && req.method === 'GET') {
        const cursor = url.searchParams.get('cursor');
        if (!cursor)
          return json(200, { data: [property('p1'), property('p2')], page: { next_cursor: 'c2', has_more: true } });
        if (cursor === 'c2') return json(200, { data: [property('p3')], page: { next_cursor: 'c3', has_more: true } });
        return json(200, { data: [property('p4')], page: { next_cursor: null, has_more: false } });
      }
      if (url.pathname === '/v1/properties' && req.method === 'POST')
        return json(201, { ...property('p9'), ...JSON.parse(body) });
      if (url.pathname === '/v1/properties/missing')
        return json(404, { code: 'not_found', message: 'No property missing.' });
      if (url.pathname === '/leads/v1/interessenten') {
        return json(
          503,
          {
            code: 'dienst_nicht_verfuegbar',
            message: 'Die Datenbank ist kurz nicht erreichbar.',
            details: [{ feld: 'db', grund: 'weg' }],
          },
          { 'retry-after': '5' },
        );
      }
      json(500, { code: 'unexpected', message: 'unexpected request in the test' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the property client', () => {
  it('sends the key with every request and the Idempotency-Key when given', async () => {
    const client = createPropertyClient({ baseUrl, apiKey: KEY });
    const key = idempotencyKey();
    const created = await unwrap(
      client.POST('/v1/properties', {
        body: { type: 'apartment', title: 'New', address: { postal_code: '10115', city: 'Berlin' } },
        headers: { 'Idempotency-Key': key },
      }),
    );
    expect(created.title).toBe('New');
    const request = seen.at(-1)!;
    expect(request.headers.apikey).toBe(KEY);
    expect(request.headers['idempotency-key']).toBe(key);
    expect(request.url).toBe('/v1/properties');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('iterates every item across pages, sending each cursor and the query', async () => {
    const client = createPropertyClient({ baseUrl, apiKey: KEY });
    const before = seen.length;
    const titles: string[] = [];
    for await (const p of client.properties.list({ status: 'active', limit: 2 })) titles.push(p.title);
    expect(titles).toEqual(['Property p1', 'Property p2', 'Property p3', 'Property p4']);
    expect(seen.slice(before).map((r) => r.url)).toEqual([
      '/v1/properties?status=active&limit=2',
      '/v1/properties?status=active&limit=2&cursor=c2',
      '/v1/properties?status=active&limit=2&cursor=c3',
    ]);
  });

  it('throws an ApiError with status, code and message for an English error answer', async () => {
    const client = createPropertyClient({ baseUrl, apiKey: KEY });
    const error = await unwrap(
      client.GET('/v1/properties/{propertyId}', { params: { path: { propertyId: 'missing' } } }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: 'No property missing.', details: [] });
    expect((error as ApiError).retryAfter).toBeUndefined();
  });
});

describe('the leads client', () => {
  it('throws a LeadsApiError with the German details and Retry-After, also from the iteration', async () => {
    const client = createLeadsClient({ baseUrl, apiKey: KEY });
    const iterate = async () => {
      for await (const _ of client.interessenten.list()) return;
    };
    const error = await iterate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeadsApiError);
    expect(error).toMatchObject({
      status: 503,
      code: 'dienst_nicht_verfuegbar',
      details: [{ feld: 'db', grund: 'weg' }],
    });
    expect((error as LeadsApiError).retryAfter).toBe(5);
  });
});

describe('verifyWebhook', () => {
  it('accepts what the services sign and refuses a changed body, a wrong secret and an old timestamp', async () => {
    const { signatureHeader } = await import('@platform/webhooks');
    const { verifyWebhook } = await import('../src/index.js');
    const body =
      '{"id":"evt_1","type":"property.created","created_at":"2026-11-23T10:00:00.000Z","data":{"id":"prop_1"}}';
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader(['old-secret', 'new-secret'], now, body);
    expect(await verifyWebhook(body, header, 'new-secret')).toEqual({ valid: true });
    expect(await verifyWebhook(new TextEncoder().encode(body), header, ['other', 'old-secret'])).toEqual({
      valid: true,
    });
    expect(await verifyWebhook(body.replace('prop_1', 'prop_2'), header, 'new-secret')).toEqual({
      valid: false,
      reason: 'signature_mismatch',
    });
    expect(await verifyWebhook(body, header, 'wrong')).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(await verifyWebhook(body, signatureHeader(['new-secret'], now - 600, body), 'new-secret')).toEqual({
      valid: false,
      reason: 'timestamp_outside_tolerance',
    });
    expect(await verifyWebhook(body, 'v1=abc', 'new-secret')).toEqual({ valid: false, reason: 'malformed_header' });
  });
});
