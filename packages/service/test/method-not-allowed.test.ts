import { readFileSync } from 'node:fs';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type AppBuildDeps, type TestApp } from '@platform/testkit';
import { createServiceApp } from '../src/index.js';
import { thingService } from './thing-service.js';

/**
 * Every path of every committed OpenAPI document, asked with every method it does not document,
 * answers 405 with `Allow` listing the methods it does (and HEAD wherever GET is). The paths are
 * served by stubs inside the real service wiring (keys, guards, both dialects); the apps' own
 * tests keep their routes and documents equal (openapi-documents, route coverage).
 */
const service = thingService;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** Routes the service wiring registers itself (keys, webhooks, events): `METHOD url`. */
let wired = new Set<string>();

type Paths = Record<string, Record<string, unknown>>;
const documented = (file: string): Paths =>
  (JSON.parse(readFileSync(new URL(`../../../openapi/${file}`, import.meta.url), 'utf8')) as { paths: Paths }).paths;

const methodsOf = (item: Record<string, unknown>) =>
  Object.keys(item)
    .map((key) => key.toUpperCase())
    .filter((method) => (METHODS as readonly string[]).includes(method));

/** Registers a stub for each documented operation under `prefix` (path without it, `{id}` → `:id`). */
const stubs =
  (paths: Paths, prefix: string, isPublic = false) =>
  async (api: FastifyInstance) => {
    for (const [path, item] of Object.entries(paths)) {
      if (!path.startsWith(`${prefix}/`)) continue;
      const url = path.slice(prefix.length).replace(/\{([^}]+)\}/g, ':$1');
      for (const method of methodsOf(item)) {
        if (wired.has(`${method} ${prefix}${url}`)) continue;
        api.route({
          method: method as HTTPMethods,
          url,
          config: isPublic ? { public: true } : {},
          handler: async () => ({ stub: true }),
        });
      }
    }
  };

type Build = (deps: AppBuildDeps, withStubs: boolean) => Promise<FastifyInstance>;

/** Builds the app without stubs first, to learn which documented routes the wiring already has. */
const withWiredRoutes = (build: Build, files: readonly string[]) => async (deps: AppBuildDeps) => {
  const bare = await build(deps, false);
  await bare.ready();
  const routes = files.flatMap((file) =>
    Object.entries(documented(file)).flatMap(([path, item]) =>
      methodsOf(item).map((method) => ({ method, url: path.replace(/\{([^}]+)\}/g, ':$1') })),
    ),
  );
  wired = new Set(
    routes
      .filter((route) => bare.hasRoute(route as { method: HTTPMethods; url: string }))
      .map((r) => `${r.method} ${r.url}`),
  );
  await bare.close();
  return build(deps, true);
};

/** Each documented path with the methods it lacks and the `Allow` it must answer. */
function cases(paths: Paths) {
  return Object.entries(paths).flatMap(([path, item]) => {
    const own = methodsOf(item);
    if (own.includes('GET')) own.push('HEAD');
    const allow = [...new Set(own)].sort().join(', ');
    const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => `${name.toLowerCase()}_1`);
    return METHODS.filter((method) => !own.includes(method)).map((method) => ({ method, url, allow }));
  });
}

const none = async () => {};
const propertyLike: Build = (deps, withStubs) =>
  createServiceApp(deps, {
    service,
    dialectFor: (url) => (url.startsWith('/leads/') ? 'de' : 'en'),
    document: { prefix: '/v1', title: 'Property API', description: 'stubs' },
    routes: withStubs ? stubs(documented('property-api.json'), '/v1') : none,
    extraApis: [
      {
        document: { prefix: '/leads/v1', title: 'Leads', description: 'stubs' },
        routes: withStubs ? stubs(documented('leads-api.json'), '/leads/v1') : none,
      },
    ],
    publicApi: {
      document: { prefix: '/public/v1', title: 'Feeds', description: 'stubs' },
      routes: withStubs ? stubs(documented('public-feeds-api.json'), '/public/v1', true) : none,
    },
  });
const agentLike: Build = (deps, withStubs) =>
  createServiceApp(deps, {
    service,
    document: { prefix: '/v1', title: 'Agent platform', description: 'stubs' },
    routes: withStubs ? stubs(documented('agent-platform-api.json'), '/v1') : none,
  });

describe.each([
  ['property service', propertyLike, ['property-api.json', 'leads-api.json', 'public-feeds-api.json']],
  ['agent platform', agentLike, ['agent-platform-api.json']],
] as const)('%s: every documented path', (_name, build, files) => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await startTestApp(service, withWiredRoutes(build, files));
  });
  afterAll(() => ctx?.close());

  it('answers each method it lacks with 405 and Allow', async () => {
    const all = files.flatMap((file) => cases(documented(file)));
    expect(all.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const { method, url, allow } of all) {
      const res = await ctx.app.inject({ method, url, headers: { apikey: ctx.tenant.key } });
      const code = url.startsWith('/leads/') ? 'methode_nicht_erlaubt' : 'method_not_allowed';
      const body = method === 'HEAD' ? code : (res.json() as { code: string }).code;
      if (res.statusCode !== 405 || res.headers.allow !== allow || body !== code)
        wrong.push(`${method} ${url}: ${res.statusCode} Allow ${String(res.headers.allow)} (want ${allow})`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 405 before any key check, as 404 is: the documented paths are public knowledge', async () => {
    const res = await ctx.app.inject({ method: 'PUT', url: '/v1/webhooks' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
  });

  it('keeps an unknown path 404', async () => {
    for (const url of ['/v1/no-such-thing', '/v1/no-such-thing/x_1', '/v2/properties'])
      expect((await ctx.app.inject({ method: 'PUT', url, headers: { apikey: ctx.tenant.key } })).statusCode).toBe(404);
  });
});
