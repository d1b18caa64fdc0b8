import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../src/server.js';
import { StringEnum } from '../src/schema-helpers.js';

const ThingSchema = Type.Object(
  {
    name: Type.String({ minLength: 2, maxLength: 10 }),
    type: Type.Optional(Type.Union([Type.Literal('fixed'), Type.Literal('percent')])),
    postal_code: Type.Optional(Type.String({ pattern: '^[0-9]{5}$' })),
    rooms: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  },
  { additionalProperties: false },
);
const ListQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }) });

let app: FastifyInstance;
beforeAll(async () => {
  app = await createApiServer({
    logLevel: 'silent',
    maxEventLoopDelayMs: 0,
    dialectFor: (url) => (url.startsWith('/leads/') ? 'de' : 'en'),
    document: { prefix: '/v1', title: 'Test API', description: 'Test' },
    extraDocuments: [{ prefix: '/leads/v1', title: 'Leads', description: 'Leads' }],
  });
  for (const prefix of ['/v1', '/leads/v1']) {
    app.get(`${prefix}/things`, { schema: { querystring: ListQuery } }, async () => ({ data: [] }));
    app.post(`${prefix}/things`, { schema: { body: ThingSchema } }, async () => ({ ok: true }));
    app.get(`${prefix}/things/:id`, async () => ({ id: 'x' }));
    app.patch(
      `${prefix}/things/:id`,
      { schema: { body: Type.Object({ kind: StringEnum(['a', 'b']) }) } },
      async () => ({
        ok: true,
      }),
    );
    app.post(`${prefix}/things/:id/archive`, async () => ({ ok: true }));
  }
  await app.ready();
});
afterAll(() => app.close());

describe('a validation detail states the constraint it broke', () => {
  it('?limit=1000 names the range 1–100, in words and as data', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/things?limit=1000' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      {
        field: 'limit',
        reason: 'out_of_range',
        message: 'limit must be between 1 and 100.',
        constraint: { minimum: 1, maximum: 100 },
      },
    ]);
  });

  it('a value outside a union of literals lists every allowed value once', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/things', payload: { name: 'ab', type: 'flat' } });
    expect(res.json().details).toEqual([
      {
        field: 'type',
        reason: 'not_allowed',
        message: 'type must be one of: "fixed", "percent".',
        constraint: { allowed: ['fixed', 'percent'] },
      },
    ]);
  });

  it('lengths, patterns and exclusive bounds are named', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: { name: 'a', postal_code: '1234', rooms: 0 },
    });
    expect(res.json().details).toEqual([
      {
        field: 'name',
        reason: 'out_of_range',
        message: 'name must be between 2 and 10 characters long.',
        constraint: { min_length: 2, max_length: 10 },
      },
      {
        field: 'postal_code',
        reason: 'invalid_format',
        message: 'postal_code must match the pattern ^[0-9]{5}$.',
        constraint: { pattern: '^[0-9]{5}$' },
      },
      {
        field: 'rooms',
        reason: 'out_of_range',
        message: 'rooms must be greater than 0.',
        constraint: { exclusive_minimum: 0 },
      },
    ]);
  });

  it('null for a field that cannot be null is missing, with the type it needs', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/things', payload: { name: null } });
    expect(res.json().details).toEqual([
      {
        field: 'name',
        reason: 'missing',
        message: 'name is required and cannot be null (send a value of type string).',
        constraint: { type: 'string' },
      },
    ]);
  });

  it('details without a constraint (a field left out, an unknown field) keep their two members', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/things', payload: { other: 1 } });
    expect(res.json().details).toEqual([
      { field: 'name', reason: 'missing' },
      { field: 'other', reason: 'unknown_field' },
    ]);
  });

  it('the leads dialect says it in German, with German member names', async () => {
    const res = await app.inject({ method: 'GET', url: '/leads/v1/things?limit=0' });
    expect(res.json()).toEqual({
      code: 'validierung_fehlgeschlagen',
      message: 'Die Anfrage ist ungültig.',
      details: [
        {
          feld: 'limit',
          grund: 'ausserhalb_bereich',
          meldung: 'limit muss zwischen 1 und 100 liegen.',
          vorgabe: { minimum: 1, maximum: 100 },
        },
      ],
    });
    const patch = await app.inject({ method: 'PATCH', url: '/leads/v1/things/x', payload: { kind: 'c' } });
    expect(patch.json().details).toEqual([
      {
        feld: 'kind',
        grund: 'nicht_erlaubt',
        meldung: 'kind muss einer dieser Werte sein: "a", "b".',
        vorgabe: { erlaubt: ['a', 'b'] },
      },
    ]);
  });
});

describe('a body over the limit', () => {
  it('is 413 naming the limit, in words and as max_bytes', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request body is larger than the limit of 1 MiB (1048576 bytes).',
      details: [
        {
          field: 'body',
          reason: 'too_long',
          message: 'body must be at most 1048576 bytes.',
          constraint: { max_bytes: 1_048_576 },
        },
      ],
    });
  });
});

describe('a known path with a method it lacks', () => {
  it.each([
    ['PUT', '/v1/things/th_1', 'GET, HEAD, PATCH'],
    ['DELETE', '/v1/things/th_1', 'GET, HEAD, PATCH'],
    ['DELETE', '/v1/things', 'GET, HEAD, POST'],
    ['OPTIONS', '/v1/things/', 'GET, HEAD, POST'],
    ['GET', '/v1/things/th_1/archive', 'POST'],
    ['HEAD', '/v1/things/th_1/archive', 'POST'],
  ])('%s %s is 405 with Allow: %s', async (method, url, allow) => {
    const res = await app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    if (method !== 'HEAD')
      expect(res.json()).toEqual({
        code: 'method_not_allowed',
        message: `${url} does not answer ${method}; it answers ${allow}.`,
      });
  });

  it('is answered in German on the leads API', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/leads/v1/things' });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({
      code: 'methode_nicht_erlaubt',
      message: '/leads/v1/things beantwortet DELETE nicht, nur GET, HEAD, POST.',
    });
  });

  it('an unknown path stays 404', async () => {
    for (const url of ['/v1/nothing', '/v1/things/th_1/archive/more', '/v2/things'])
      expect((await app.inject({ method: 'DELETE', url })).statusCode).toBe(404);
  });
});

describe('GET /', () => {
  it('points to the documents of every API of the service', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: expect.stringContaining('OpenAPI'),
      apis: [
        { title: 'Test API', base_path: '/v1', openapi: '/v1/openapi.json', docs: '/v1/docs' },
        { title: 'Leads', base_path: '/leads/v1', openapi: '/leads/v1/openapi.json', docs: '/leads/v1/docs' },
      ],
    });
    const documented = await app.inject({ method: 'GET', url: res.json().apis[0].openapi });
    expect(documented.statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/' })).headers.allow).toBe('GET, HEAD');
  });
});
