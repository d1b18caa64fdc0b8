import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceiver, type WebhookEvent } from '../examples/receiver.js';
import { signatureHeader } from '../src/signature.js';

const secret = 'whsec_example';
const handled: WebhookEvent[] = [];
const server = createReceiver({ secrets: [secret], handle: (event) => void handled.push(event) });
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const deliver = (body: string, header: string) =>
  fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-service-signature': header } });

describe('the README receiver', () => {
  it('accepts a signed delivery with 202, handles it once, and drops the repeat', async () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'property.created', created_at: new Date().toISOString(), data: { property_id: 'prop_1' } });
    const header = signatureHeader([secret], Math.floor(Date.now() / 1000), body);
    expect((await deliver(body, header)).status).toBe(202);
    expect((await deliver(body, header)).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handled.map((e) => e.id)).toEqual(['evt_1']);
  });

  it('refuses a tampered body, a wrong secret and a replay older than 300 s', async () => {
    const body = JSON.stringify({ id: 'evt_2', type: 'property.created', created_at: new Date().toISOString(), data: {} });
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(body.replace('evt_2', 'evt_3'), signatureHeader([secret], now, body))).status).toBe(400);
    expect((await deliver(body, signatureHeader(['other'], now, body))).status).toBe(400);
    expect((await deliver(body, signatureHeader([secret], now - 301, body))).status).toBe(400);
    expect(handled.map((e) => e.id)).not.toContain('evt_2');
  });
});
