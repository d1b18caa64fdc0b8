// Whose request a log line is: every line of the service app carries its service, and every line of
// a request with a verified key its application and key id; the key itself is never logged.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@platform/testkit';
import { createServiceApp } from '../src/index.js';
import { thingService } from './thing-service.js';

const service = thingService;
let ctx: TestApp;

beforeAll(async () => {
  ctx = await startTestApp(service, (deps) =>
    createServiceApp(
      { ...deps, service: service.id },
      {
        service,
        document: { prefix: '/v1', title: 'Test API', description: 'Test API' },
        routes: async (v1) => {
          v1.get('/things', async (request) => {
            // A handler that logs the request's headers: the key stays redacted.
            request.log.info({ headers: { apikey: request.headers.apikey } }, 'listing things');
            return { data: [] };
          });
          v1.get('/broken', async () => {
            throw new Error('boom');
          });
        },
      },
    ),
  );
});
afterAll(() => ctx?.close());
beforeEach(() => void ctx.logs.lines.splice(0));

type Line = Record<string, unknown>;
const lines = (): Line[] => ctx.logs.lines.map((line) => JSON.parse(line) as Line);
const linesOf = (requestId: string) => lines().filter((line) => line.reqId === requestId);

describe('the log lines of an authenticated request', () => {
  it('carry the service, the application id and the key id, its request line included', async () => {
    const response = await ctx.send('GET', '/v1/things');
    expect(response.statusCode).toBe(200);
    const own = linesOf(response.headers['x-request-id'] as string);
    expect(own.map((line) => line.msg)).toEqual(['listing things', 'request completed']);
    for (const line of own)
      expect(line).toMatchObject({
        service: service.id,
        application_id: ctx.tenant.applicationId,
        key_id: ctx.tenant.keyId,
      });
    expect(own[1]).toMatchObject({ req: { method: 'GET', url: '/v1/things' }, res: { statusCode: 200 } });
    expect(own[0].headers).toEqual({ apikey: '[REDACTED]' });
  });

  it('carry them on an error logged while the request is answered', async () => {
    const response = await ctx.send('GET', '/v1/broken', undefined, ctx.other.key);
    expect(response.statusCode).toBe(500);
    const own = linesOf(response.headers['x-request-id'] as string);
    expect(own.map((line) => [line.level, line.msg])).toEqual([
      [50, 'unexpected error'],
      [30, 'request completed'],
    ]);
    for (const line of own)
      expect(line).toMatchObject({
        service: service.id,
        application_id: ctx.other.applicationId,
        key_id: ctx.other.keyId,
      });
  });

  it('never hold the key', async () => {
    await ctx.send('GET', '/v1/things');
    await ctx.send('GET', '/v1/broken');
    await ctx.send('GET', '/v1/things', undefined, ctx.other.key);
    expect(ctx.logs.text).not.toContain(ctx.tenant.key);
    expect(ctx.logs.text).not.toContain(ctx.other.key);
  });
});

describe('the log lines of a request without a verified key', () => {
  it('carry the service and no application or key id', async () => {
    const wrongKey = `${ctx.tenant.key.slice(0, -7)}0000000`;
    const answers = [
      await ctx.app.inject({ method: 'GET', url: '/v1/things' }),
      await ctx.send('GET', '/v1/things', undefined, wrongKey),
      await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([401, 401, 200]);
    const requestLines = lines().filter((line) => line.msg === 'request completed');
    expect(requestLines).toHaveLength(3);
    for (const line of requestLines) {
      expect(line.service).toBe(service.id);
      expect(line).not.toHaveProperty('application_id');
      expect(line).not.toHaveProperty('key_id');
    }
    expect(ctx.logs.text).not.toContain(wrongKey);
  });
});

describe('a line of the app outside any request', () => {
  it('carries the service too', () => {
    ctx.app.log.warn('a line of the app');
    expect(lines()).toEqual([expect.objectContaining({ service: service.id, msg: 'a line of the app' })]);
  });
});
