import { connect, type AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { createApiServer } from '../src/index.js';

it('answers a request that arrives while the server closes with 503 in the error shape, with the security headers', async () => {
  const app = await createApiServer({ document: { prefix: '/v1', title: 't', description: 'd' }, logLevel: 'silent' });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  app.get('/v1/slow', { config: { public: true } }, async () => {
    await held;
    return { ok: true };
  });
  app.get('/v1/fast', { config: { public: true } }, async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const socket = connect({ host: '127.0.0.1', port: (app.server.address() as AddressInfo).port });
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  // a request in flight when the close starts keeps its connection; the next one on it arrives while closing
  socket.write('GET /v1/slow HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closing = app.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  release();
  while (!text.includes('{"ok":true}')) await new Promise((resolve) => setTimeout(resolve, 10));
  socket.write('GET /v1/fast HTTP/1.1\r\nHost: x\r\n\r\n');
  await closed;
  await closing;
  const [first, second] = text.split(/(?=HTTP\/1\.1 )/);
  expect(first).toMatch(/^HTTP\/1\.1 200 /); // the request in flight finished
  expect(second).toMatch(/^HTTP\/1\.1 503 /);
  expect(second).toMatch(/\r\nretry-after: 5\r\n/i);
  expect(second).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
  expect(second).toMatch(/\r\ncache-control: no-store\r\n/i);
  expect(JSON.parse(second.split('\r\n\r\n')[1])).toEqual({
    code: 'service_unavailable',
    message: 'The service is briefly unavailable; try again shortly.',
  });
});
