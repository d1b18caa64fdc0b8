import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@platform/db';
import { announceDeprecationsByPath, apiVersion } from '../src/api-version.js';

const deprecation = {
  version: 'v1',
  sunset: new Date('2027-06-30T00:00:00Z'),
  successor: 'https://api.example.test/v2/docs',
};
const SUCCESSOR_LINK = '<https://api.example.test/v2/docs>; rel="successor-version"';
// No route here authenticates, so nothing is recorded and the database is never asked.
const noDatabase = {} as PrismaClient;

const app = Fastify();
beforeAll(async () => {
  announceDeprecationsByPath(app, [deprecation]);
  app.get('/v1/openapi.json', async () => ({ openapi: '3.1.0' }));
  await app.register(
    async (v1) => {
      await v1.register(apiVersion, { db: noDatabase, now: () => new Date(), version: 'v1' });
      v1.get('/things', async (_request, reply) =>
        reply.header('link', '<https://api.example.test/v1/things?cursor=abc>; rel="next"').send({ data: [] }),
      );
      v1.get('/replayed', async (_request, reply) => reply.header('link', SUCCESSOR_LINK).send({}));
    },
    { prefix: '/v1' },
  );
  app.get('/v1x/other', async () => ({}));
  app.get('/leads/v1/things', async () => ({}));
  await app.ready();
});
afterAll(() => app.close());

const get = (url: string) => app.inject({ method: 'GET', url });

describe('deprecation headers', () => {
  it('append the successor to a Link header a route set (pagination), once', async () => {
    expect((await get('/v1/things')).headers.link).toBe(
      `<https://api.example.test/v1/things?cursor=abc>; rel="next", ${SUCCESSOR_LINK}`,
    );
    expect((await get('/v1/replayed')).headers.link).toBe(SUCCESSOR_LINK);
  });

  it('reach the version paths outside its context from the root (unknown paths, the document), and no other path', async () => {
    for (const url of ['/v1/no-such-route', '/v1/openapi.json', '/v1']) {
      const res = await get(url);
      expect(res.headers, url).toMatchObject({
        deprecation: 'true',
        sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
        link: SUCCESSOR_LINK,
      });
    }
    for (const url of ['/v1x/other', '/leads/v1/things', '/health/live'])
      expect((await get(url)).headers.deprecation, url).toBeUndefined();
  });
});
