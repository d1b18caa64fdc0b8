import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isDatabaseUnavailable, type Db, type Environment, type PrismaClient } from '@platform/db';
import { KeyVerifier, apiKeyRoutes, authPlugin, type AuthenticatedRoute, type KeyOwner } from '@platform/auth';
import {
  CursorCodec,
  ScoredCursorCodec,
  createApiServer,
  type ApiDocument,
  type Dialect,
  type ServerOptionsInput,
} from '@platform/http';
import type { Sandbox } from '@platform/sandbox';
import type { BlobStorage } from '@platform/storage';
import {
  ereignisRoutes,
  eventEmitter,
  eventRoutes,
  webhookRoutes,
  type EventCatalogue,
  type EventEmitter,
  type WebhookInfrastructure,
} from '@platform/webhooks';
import type { ServiceDescriptor } from './descriptor.js';
import type { JobQueue } from './jobs.js';
import { announceDeprecationsByPath, apiVersion, type ApiDeprecation } from './api-version.js';
import { documentGuards } from './documented-guards.js';
import { healthRoutes, type ReadinessCheck } from './health.js';
import { idempotency } from './idempotency.js';
import { rateLimits, type RateLimitSettings } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of a service app that needs a key (all its APIs); the security suites check that each is covered. */
    authenticatedRoutes: readonly AuthenticatedRoute[];
  }
}

/** The infrastructure an app is built from (tests hand in their own database and clock). */
export interface ServiceAppDeps extends Omit<ServerOptionsInput, 'dialectFor' | 'loggedQueryParameters'> {
  db: PrismaClient;
  environment: Environment;
  /** Server-side secret for key hashes; cursor signatures use a key derived from it. */
  pepper: string;
  webhooks: WebhookInfrastructure;
  /** Blob storage of uploaded files (property media, agent artifacts). */
  storage: BlobStorage;
  /** Where uploaded images and PDFs are decoded (child processes with limits). */
  sandbox: Sandbox;
  /** How long decoding one upload may take (default 30 s); longer is a 422. */
  decodeTimeoutMs?: number;
  /** The worker's queue: documents are generated there. */
  jobs: JobQueue;
  /** Where integrators reach this service (`https://api.example.com`), for URLs in events and documents. */
  publicBaseUrl: string;
  /**
   * Where integrators reach the production and the sandbox deployment of this service: the
   * OpenAPI documents' `servers`. Default: `publicBaseUrl` for this deployment's environment.
   */
  publicBaseUrls?: { production?: string; sandbox?: string };
  now?: () => Date;
  keyCacheTtlMs?: number;
  /** The deployment's other services: a key of one of them is refused with its name. */
  neighbours?: readonly KeyOwner[];
  /** Further errors that mean a dependency is briefly unreachable (the database's are known already). */
  isUnavailable?: (error: unknown) => boolean;
  /** Event-loop delay (ms) beyond which requests get 503 at once; default 1000. */
  maxEventLoopDelayMs?: number;
  /** Budgets per application (all its keys together) shared through Redis; unset: no limits. */
  rateLimit?: RateLimitSettings;
  /** Active API keys an application may have (API_KEYS_PER_APPLICATION); default 20. */
  apiKeysPerApplication?: number;
  /** API versions with a sunset date. */
  deprecations?: readonly ApiDeprecation[];
  /** What `/health/ready` checks besides the database (Redis, storage), by name. */
  readiness?: Record<string, ReadinessCheck>;
  /** Told of every answered request (metrics). */
  observeRequest?: (sample: RequestSample) => void;
  /** Told of every key lookup: from the cache or the database (metrics). */
  onKeyLookup?: (result: 'hit' | 'miss') => void;
}

/** One answered request, for metrics: the route pattern (not the URL, which holds ids). */
export interface RequestSample {
  service: string;
  method: string;
  /** `/v1/properties/:propertyId`; unmatched requests (404) share one value. */
  route: string;
  statusCode: number;
  seconds: number;
}

/** What domain routes get from the wiring. */
export interface ApiContext<C extends EventCatalogue = EventCatalogue> {
  /** The client; services take it as `Db`, so that they can also run inside another's transaction. */
  db: Db;
  cursors: CursorCodec;
  /** For lists ordered by a score first (inquiries, access requests). */
  scoredCursors: ScoredCursorCodec;
  now: () => Date;
  /** Records an event of the service's catalogue in the caller's transaction (type and data checked). */
  emit: EventEmitter<C>;
  /** Where uploaded files are kept (content-addressed, shared by both services). */
  storage: BlobStorage;
  /** Where uploaded images and PDFs are decoded. */
  sandbox: Sandbox;
  /** How long decoding one upload may take. */
  decodeTimeoutMs: number;
  /** The worker's queue (document generation). */
  jobs: JobQueue;
  /** Where integrators reach this service, without a trailing slash. */
  publicBaseUrl: string;
}

/** The documents' `servers`: production, then sandbox, each where it is known. */
function documentServers(deps: Pick<ServiceAppDeps, 'environment' | 'publicBaseUrl' | 'publicBaseUrls'>) {
  const urls = { ...deps.publicBaseUrls };
  urls[deps.environment] ??= deps.publicBaseUrl;
  const strip = (url: string) => url.replace(/\/+$/, '');
  return [
    ...(urls.production ? [{ url: strip(urls.production), description: 'Production (live keys, `*_live_*`)' }] : []),
    ...(urls.sandbox ? [{ url: strip(urls.sandbox), description: 'Sandbox (test keys, `*_test_*`)' }] : []),
  ];
}

/** How long decoding one upload may take by default. */
export const DECODE_TIMEOUT_MS = 30_000;

export interface ServiceAppOptions<C extends EventCatalogue> {
  service: ServiceDescriptor<C>;
  document: ApiDocument;
  dialectFor?: (url: string) => Dialect;
  /** Registers the domain routes inside the authenticated `/v1` context. */
  routes: (v1: FastifyInstance, context: ApiContext<C>) => Promise<void>;
  /** Further authenticated APIs of the service under their own prefix (same keys), e.g. `/leads/v1`. */
  extraApis?: { document: ApiDocument; routes: (api: FastifyInstance, context: ApiContext<C>) => Promise<void> }[];
  /** Routes without a key (public feeds), under their document's prefix (e.g. `/public/v1`); their operations declare `security: []`. */
  publicApi?: { document: ApiDocument; routes: (api: FastifyInstance, context: ApiContext<C>) => Promise<void> };
}

/**
 * The common wiring of both services: server stack and docs, key verification with scopes, the
 * `/v1/api-keys` rotation routes, the service's own routes, then its webhook and events routes.
 */
export async function createServiceApp<const C extends EventCatalogue>(
  deps: ServiceAppDeps,
  options: ServiceAppOptions<C>,
): Promise<FastifyInstance> {
  const { service } = options;
  const now = deps.now ?? (() => new Date());
  const extraApis = options.extraApis ?? [];
  const app = await createApiServer({
    ...deps,
    service: service.id,
    dialectFor: options.dialectFor,
    isUnavailable: (error) => isDatabaseUnavailable(error) || (deps.isUnavailable?.(error) ?? false),
    loggedQueryParameters: service.loggedQueryParameters,
    document: options.document,
    servers: documentServers(deps),
    extraDocuments: [
      ...extraApis.map((api) => api.document),
      ...(options.publicApi ? [options.publicApi.document] : []),
    ],
  });
  announceDeprecationsByPath(app, deps.deprecations ?? []);
  const authenticatedRoutes: AuthenticatedRoute[] = [];
  app.decorate('authenticatedRoutes', authenticatedRoutes);
  const verifier = new KeyVerifier({
    db: deps.db,
    service,
    neighbours: deps.neighbours?.filter((other) => other.id !== service.id),
    environment: deps.environment,
    pepper: deps.pepper,
    now: () => now().getTime(),
    cacheTtlMs: deps.keyCacheTtlMs,
    onLookup: deps.onKeyLookup,
  });
  healthRoutes(app, {
    database: () => deps.db.$queryRaw`SELECT 1`,
    ...deps.readiness,
  });
  if (deps.observeRequest) {
    const observe = deps.observeRequest;
    // A plain hook calling `done` (no promise per request).
    app.addHook('onResponse', (request, reply, done) => {
      observe({
        service: service.id,
        method: request.method,
        route: request.routeOptions.url ?? '(unmatched)',
        statusCode: reply.statusCode,
        seconds: reply.elapsedTime / 1000,
      });
      done();
    });
  }
  // After the key check, in this order: budgets (before any work), the version's headers and
  // last call, then idempotency (a replay is a call of the version and counts against the budget).
  const guard = async (api: FastifyInstance, prefix: string, dialect: Dialect) => {
    documentGuards(api, dialect);
    if (deps.rateLimit) await api.register(rateLimits, { ...deps.rateLimit, dialect });
    await api.register(apiVersion, { db: deps.db, now, version: prefix.replace(/^\//, '') });
    await api.register(idempotency, { db: deps.db, now, dialect });
  };
  const cursors = new CursorCodec(createHmac('sha256', deps.pepper).update('cursor-signing').digest('hex'));
  const scoredCursors = new ScoredCursorCodec(
    createHmac('sha256', deps.pepper).update('scored-cursor-signing').digest('hex'),
  );
  const context: ApiContext<C> = {
    db: deps.db,
    cursors,
    scoredCursors,
    now,
    emit: eventEmitter(service.id, service.events),
    storage: deps.storage,
    sandbox: deps.sandbox,
    decodeTimeoutMs: deps.decodeTimeoutMs ?? DECODE_TIMEOUT_MS,
    jobs: deps.jobs,
    publicBaseUrl: deps.publicBaseUrl.replace(/\/+$/, ''),
  };
  await app.register(
    async (v1) => {
      await v1.register(authPlugin, { verifier, routes: authenticatedRoutes });
      await guard(v1, '/v1', 'en');
      await v1.register(apiKeyRoutes, {
        db: deps.db,
        service,
        environment: deps.environment,
        pepper: deps.pepper,
        verifier,
        cursors,
        maxKeys: deps.apiKeysPerApplication,
      });
      await options.routes(v1, context);
      await v1.register(webhookRoutes, {
        ...deps.webhooks,
        db: deps.db,
        cursors,
        now,
        catalogue: service.events,
        service: service.id,
      });
      await v1.register(eventRoutes, { db: deps.db, cursors, now, catalogue: service.events, service: service.id });
    },
    { prefix: '/v1' },
  );
  for (const extra of extraApis) {
    await app.register(
      async (api) => {
        const dialect = options.dialectFor?.(`${extra.document.prefix}/`) ?? 'en';
        const scopesUsed = new Set<string>();
        api.addHook('onRoute', (route) => void (route.config?.scope && scopesUsed.add(route.config.scope)));
        await api.register(authPlugin, { verifier, dialect, routes: authenticatedRoutes });
        await guard(api, extra.document.prefix, dialect);
        await extra.routes(api, context);
        // An extra API shows the events of its own domain: the types whose scope its operations use
        // (the leads API's `leads:*` routes: the `inquiry.*` events).
        const events = service.events.filter((event) => scopesUsed.has(event.scope));
        if (events.length > 0) {
          const routes = dialect === 'de' ? ereignisRoutes : eventRoutes;
          await api.register(routes, { db: deps.db, cursors, now, catalogue: events, service: service.id });
        }
      },
      { prefix: extra.document.prefix },
    );
  }
  if (options.publicApi) {
    const { document, routes } = options.publicApi;
    await app.register(async (api) => routes(api, context), { prefix: document.prefix });
  }
  return app;
}
