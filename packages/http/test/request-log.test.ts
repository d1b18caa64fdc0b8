import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApiServer } from '../src/index.js';

const KEY = 'pm_live_0123456789ABCDEFabcdef0123456789xyzXYZ';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, stream, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

async function server(logLevel: string, log: ReturnType<typeof capture>): Promise<FastifyInstance> {
  const app = await createApiServer({
    document: { prefix: '/v1', title: 't', description: 'd' },
    logStream: log.stream,
    logLevel,
    loggedQueryParameters: ['status'],
  });
  app.get('/v1/things/:id', { config: { public: true } }, async (request) => {
    // A line of a handler's own still goes through the redacting logger.
    request.log.info({ headers: { apikey: request.headers.apikey }, key: 'k', secret: 's' }, 'handler line');
    return { ok: true };
  });
  app.get('/v1/quiet', { config: { public: true }, logLevel: 'warn' }, async () => ({ ok: true }));
  app.get('/v1/chatty', { config: { public: true }, logLevel: 'debug' }, async (request) => {
    request.log.debug('debug line');
    return { ok: true };
  });
  await app.ready();
  return app;
}

describe('the request line', () => {
  const log = capture();
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await server('info', log);
  });
  afterAll(() => app.close());
  beforeEach(() => void log.lines.splice(0));

  it('is one line per request with the id, method, redacted URL, address, status and time, in this order', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/v1/things/t_1?status=active&email=erika%40example.de',
      headers: { apikey: KEY, 'x-request-id': 'req-log-test' },
    });
    expect(res.statusCode).toBe(200);
    const lines = log.entries().filter((entry) => entry.msg === 'request completed');
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(Object.keys(line)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'req',
      'res',
      'responseTime',
      'msg',
    ]);
    expect(line).toMatchObject({
      level: 30,
      reqId: 'req-log-test',
      req: { method: 'GET', url: '/v1/things/t_1?status=active&email=[REDACTED]', ip: '127.0.0.1' },
      res: { statusCode: 200 },
      msg: 'request completed',
    });
    expect(Object.keys(line.req as object)).toEqual(['method', 'url', 'ip']);
    expect(typeof line.responseTime).toBe('number');
  });

  it('never holds the apikey header or secrets, in the request line or a line of the handler', async () => {
    await app.inject({ method: 'GET', url: '/v1/things/t_2', headers: { apikey: KEY } });
    const text = log.lines.join('');
    expect(text).not.toContain(KEY);
    const handler = log.entries().find((entry) => entry.msg === 'handler line');
    expect(handler).toMatchObject({
      headers: { apikey: '[REDACTED]' },
      key: '[REDACTED]',
      secret: '[REDACTED]',
    });
    expect(handler?.reqId).toBe(log.entries().find((entry) => entry.msg === 'request completed')?.reqId);
  });

  it('is left out on a route logging at warn, and written on one logging at debug', async () => {
    await app.inject({ method: 'GET', url: '/v1/quiet' });
    expect(log.lines).toHaveLength(0);
    await app.inject({ method: 'GET', url: '/v1/chatty' });
    expect(log.entries().map((entry) => entry.msg)).toEqual(['debug line', 'request completed']);
  });

  it('is written for refused and unknown requests too', async () => {
    await app.inject({ method: 'GET', url: `/v1/things/t_3?apikey=${KEY}` });
    await app.inject({ method: 'GET', url: '/v1/nothing-here' });
    const lines = log.entries().filter((entry) => entry.msg === 'request completed');
    expect(
      lines.map((line) => [(line.req as { url: string }).url, (line.res as { statusCode: number }).statusCode]),
    ).toEqual([
      ['/v1/things/t_3?apikey=[REDACTED]', 400],
      ['/v1/nothing-here', 404],
    ]);
    expect(log.lines.join('')).not.toContain(KEY);
  });
});

describe('the request line of a server logging at warn', () => {
  const log = capture();
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await server('warn', log);
  });
  afterAll(() => app.close());

  it('is not written, but a route logging at debug still writes it', async () => {
    await app.inject({ method: 'GET', url: '/v1/things/t_1' });
    expect(log.lines).toHaveLength(0);
    await app.inject({ method: 'GET', url: '/v1/chatty' });
    expect(log.entries().map((entry) => entry.msg)).toEqual(['debug line', 'request completed']);
  });
});
