import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApiServer } from '../src/index.js';

let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  app = await createApiServer({
    document: { prefix: '/v1', title: 't', description: 'd' },
    logLevel: 'silent',
    requestTimeoutMs: 1_500,
  });
  app.post('/v1/things', { config: { public: true } }, async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

it('cuts off a request whose body is trickled slower than the request timeout (a real socket)', async () => {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = Date.now();
  socket.write(
    `POST /v1/things HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
  );
  // one byte every 100 ms: never idle long enough for the idle timeout, far too slow to finish
  const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
  const answer = await new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.once('close', () => resolve(text));
  });
  clearInterval(trickle);
  const elapsed = Date.now() - started;
  expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(answer).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
  expect(JSON.parse(answer.split('\r\n\r\n')[1])).toEqual({
    code: 'request_timeout',
    message: 'The request took too long to arrive.',
  });
  expect(elapsed).toBeGreaterThanOrEqual(1_400);
  expect(elapsed).toBeLessThan(10_000);
});
