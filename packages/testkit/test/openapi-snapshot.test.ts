import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openApiSnapshot, prettyDocument } from '../src/openapi-snapshot.js';

const compact = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Listings', version: '1.0.0' },
  paths: {
    '/v1/listings': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } },
          },
        },
      },
    },
  },
});
const committed = prettyDocument(compact);
const additive = compact.replace('"id":{"type":"string"}', '"id":{"type":"string"},"city":{"type":"string"}');
const breaking = compact.replace('"id":{"type":"string"}', '"key":{"type":"string"}');

let served = compact;
let app: FastifyInstance;
let directory: string;
let file: string;

beforeAll(async () => {
  app = Fastify();
  app.get('/openapi.json', (_request, reply) => reply.type('application/json').send(served));
  await app.ready();
});
afterAll(() => app.close());
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'openapi-snapshot-'));
  file = join(directory, 'listings-api.json');
  writeFileSync(file, committed);
});
afterEach(() => {
  delete process.env.UPDATE_OPENAPI;
  delete process.env.ALLOW_BREAKING_API_CHANGE;
  rmSync(directory, { recursive: true, force: true });
});

describe('the regeneration check', () => {
  it('passes an unchanged document with no breaking change', async () => {
    served = compact;
    const snapshot = await openApiSnapshot(app, '/openapi.json', file);
    expect([snapshot.actual === snapshot.committed, snapshot.breaking, snapshot.difference]).toEqual([true, [], '']);
  });

  it('says an additive difference is not breaking', async () => {
    served = additive;
    const snapshot = await openApiSnapshot(app, '/openapi.json', file);
    expect(snapshot.actual === snapshot.committed).toBe(false);
    expect(snapshot.difference).toContain('the change is additive (not breaking)');
    expect(snapshot.difference).toContain('Changed: /v1/listings');
  });

  it('lists a breaking difference with its pointer', async () => {
    served = breaking;
    const snapshot = await openApiSnapshot(app, '/openapi.json', file);
    expect(snapshot.difference).toContain('with 1 BREAKING change(s)');
    expect(snapshot.difference).toContain(
      "GET /v1/listings: response field 'id' removed [field-removed] at /paths/~1v1~1listings/get/responses/200/content/application~1json/schema/properties/id",
    );
  });

  it('says how to write a missing document', async () => {
    rmSync(file);
    const snapshot = await openApiSnapshot(app, '/openapi.json', file);
    expect([snapshot.committed, snapshot.difference]).toEqual([
      null,
      expect.stringContaining('is missing; write it with UPDATE_OPENAPI=1'),
    ]);
  });
});

describe('UPDATE_OPENAPI=1', () => {
  it('rewrites the document after an additive change', async () => {
    process.env.UPDATE_OPENAPI = '1';
    served = additive;
    const snapshot = await openApiSnapshot(app, '/openapi.json', file);
    expect([readFileSync(file, 'utf8'), snapshot.committed]).toEqual([
      prettyDocument(additive),
      prettyDocument(additive),
    ]);
  });

  it('writes the document pretty-printed (2 spaces, key order kept, final newline) for a reviewable diff', async () => {
    process.env.UPDATE_OPENAPI = '1';
    served = additive;
    await openApiSnapshot(app, '/openapi.json', file);
    const written = readFileSync(file, 'utf8');
    expect(written.split('\n').slice(0, 3)).toEqual(['{', '  "openapi": "3.1.0",', '  "info": {']);
    expect([written.endsWith('}\n'), JSON.stringify(JSON.parse(written))]).toEqual([true, additive]);
  });

  it('refuses to overwrite the document with a breaking change, and leaves it as it was', async () => {
    process.env.UPDATE_OPENAPI = '1';
    served = breaking;
    await expect(openApiSnapshot(app, '/openapi.json', file)).rejects.toThrow(
      /refusing to overwrite .*listings-api\.json: the generated document has 1 breaking change\(s\):\n.*response field 'id' removed/,
    );
    expect(readFileSync(file, 'utf8')).toBe(committed);
  });

  it('overwrites with a breaking change when ALLOW_BREAKING_API_CHANGE=1', async () => {
    process.env.UPDATE_OPENAPI = '1';
    process.env.ALLOW_BREAKING_API_CHANGE = '1';
    served = breaking;
    const snapshot = await openApiSnapshot(app, '/openapi.json', file);
    expect([readFileSync(file, 'utf8') === prettyDocument(breaking), snapshot.breaking.length]).toEqual([true, 1]);
  });
});
