import { request } from 'node:http';
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
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'property.created',
      created_at: new Date().toISOString(),
      data: { property_id: 'prop_1' },
    });
    const header = signatureHeader([secret], Math.floor(Date.now() / 1000), body);
    expect((await deliver(body, header)).status).toBe(202);
    expect((await deliver(body, header)).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handled.map((e) => e.id)).toEqual(['evt_1']);
  });

  it('refuses a tampered body, a wrong secret and a replay older than 300 s', async () => {
    const body = JSON.stringify({
      id: 'evt_2',
      type: 'property.created',
      created_at: new Date().toISOString(),
      data: {},
    });
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(body.replace('evt_2', 'evt_3'), signatureHeader([secret], now, body))).status).toBe(400);
    expect((await deliver(body, signatureHeader(['other'], now, body))).status).toBe(400);
    expect((await deliver(body, signatureHeader([secret], now - 301, body))).status).toBe(400);
    expect(handled.map((e) => e.id)).not.toContain('evt_2');
  });
});

/** A POST with node:http, so that the body can be streamed without a length (chunked). */
function post(chunks: Buffer[], headers: Record<string, string | number>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let status: number | undefined;
    const parts: Buffer[] = [];
    const req = request(url, { method: 'POST', headers }, (res) => {
      status = res.statusCode!;
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts).toString() }));
      res.on('error', () => resolve({ status: status!, body: Buffer.concat(parts).toString() }));
    });
    // The receiver closes the connection after its 413 while the body is still being sent.
    req.on('error', (error) =>
      status === undefined ? reject(error) : resolve({ status, body: Buffer.concat(parts).toString() }),
    );
    const write = (i: number): void => {
      if (i === chunks.length) return void req.end();
      if (req.destroyed) return;
      req.write(chunks[i], () => write(i + 1));
    };
    write(0);
  });
}

describe('the README receiver bounds what it buffers', () => {
  const MiB = 1024 * 1024;

  it('answers 413 to a body announced larger than 1 MiB, without reading it', async () => {
    const res = await post([Buffer.alloc(16)], { 'content-type': 'application/json', 'content-length': MiB + 1 });
    expect(res).toEqual({ status: 413, body: 'payload too large' });
  }, 5_000);

  it('answers 413 to a streamed body once it passes 1 MiB, and handles nothing', async () => {
    const chunks = Array.from({ length: 40 }, () => Buffer.alloc(64 * 1024, 0x20)); // 2.5 MiB, chunked
    const res = await post(chunks, {
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
      'x-service-signature': 't=1,v1=' + 'a'.repeat(64),
    });
    expect(res.status).toBe(413);
    expect(handled.map((e) => e.id)).not.toContain('evt_big');
  }, 5_000);

  it('still accepts a signed delivery of almost 1 MiB', async () => {
    const body = JSON.stringify({
      id: 'evt_big',
      type: 'property.created',
      created_at: new Date().toISOString(),
      data: { padding: 'x'.repeat(MiB - 200) },
    });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MiB);
    const res = await deliver(body, signatureHeader([secret], Math.floor(Date.now() / 1000), body));
    expect(res.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handled.map((e) => e.id)).toContain('evt_big');
  });
});
