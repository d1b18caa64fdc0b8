import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApiServer } from '../src/index.js';

const lines: string[] = [];
const logs = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});

/** Like a database error: its message quotes the arguments of the failed call. */
class DatabaseError extends Error {
  code = 'P2002';
}

let app: FastifyInstance;
beforeAll(async () => {
  app = await createApiServer({ document: { prefix: '/v1', title: 't', description: 'd' }, logStream: logs });
  app.get('/v1/boom', { config: { public: true } }, async () => {
    throw new DatabaseError('Invalid `prisma.prospect.create()` invocation: { email: "erika.mustermann@example.de" }', {
      cause: new Error('nachname Mustermann'),
    });
  });
  await app.ready();
});
afterAll(() => app.close());

it('answers an unexpected error with 500 in the error shape, the security headers and no stack', async () => {
  const res = await app.inject({ method: 'GET', url: '/v1/boom', headers: { 'x-request-id': 'req-500-test' } });
  expect(res.statusCode).toBe(500);
  expect(res.json()).toEqual({
    code: 'internal_error',
    message: 'An unexpected error occurred (request req-500-test).',
  });
  expect(res.headers).toMatchObject({
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-request-id': 'req-500-test',
  });
  expect(res.body).not.toMatch(/at |stack|prisma|example\.de/);
});

it('logs the error class, code and frames, never the message that quotes the arguments', () => {
  const entry = lines
    .map(
      (line) =>
        JSON.parse(line) as {
          msg?: string;
          error?: { type: string; code?: string; at?: string[]; cause?: { type: string } };
        },
    )
    .find((e) => e.msg === 'unexpected error');
  expect(entry?.error).toMatchObject({ type: 'DatabaseError', code: 'P2002', cause: { type: 'Error' } });
  expect(entry?.error?.at?.length).toBeGreaterThan(0);
  const text = lines.join('');
  expect(text).not.toContain('erika.mustermann');
  expect(text).not.toContain('Mustermann');
});
