import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listening, pingLocalRedis } from '../src/local-port.js';

// A port held by something that accepts connections and never answers: the port check of a
// second start (REDIS_PORT) must give up on it, not wait forever.
let server: Server;
let port: number;
const sockets: Socket[] = [];
beforeAll(async () => {
  server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('finds the silent server listening, and its PING answered by a timeout, not never', async () => {
  expect(await listening(port)).toBe(true);
  const answers = await Promise.all([pingLocalRedis(port, 'a-password'), pingLocalRedis(port)]);
  expect(answers).toEqual([expect.not.stringMatching(/^PONG$/), expect.not.stringMatching(/^PONG$/)]);
}, 20_000);
