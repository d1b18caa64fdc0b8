import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Environment, PrismaClient, Service } from '@platform/db';
import { CursorCodec, ScoredCursorCodec, createApiServer, type ApiDocument, type Dialect, type ServerOptionsInput } from '@platform/http';
import { authPlugin } from './plugin.js';
import { apiKeyRoutes } from './routes.js';
import { KeyVerifier } from './verifier.js';

/** The infrastructure an app is built from (tests hand in their own database and clock). */
export interface ServiceAppDeps extends ServerOptionsInput {
  db: PrismaClient;
  environment: Environment;
  /** Server-side secret for key hashes; cursor signatures use a key derived from it. */
  pepper: string;
  now?: () => Date;
  keyCacheTtlMs?: number;
}

/** What domain routes get from the wiring. */
export interface ApiContext {
  db: PrismaClient;
  cursors: CursorCodec;
  /** For lists ordered by a score first (inquiries, access requests). */
  scoredCursors: ScoredCursorCodec;
  now: () => Date;
}

export interface ServiceAppOptions {
  service: Service;
  document: ApiDocument;
  dialectFor?: (url: string) => Dialect;
  /** Registers the domain routes inside the authenticated `/v1` context. */
  routes: (v1: FastifyInstance, context: ApiContext) => Promise<void>;
  /** Further authenticated APIs of the service under their own prefix (same keys), e.g. `/leads/v1`. */
  extraApis?: { document: ApiDocument; routes: (api: FastifyInstance, context: ApiContext) => Promise<void> }[];
}

/**
 * The common wiring of both services: server stack and docs, key verification with scopes, the
 * `/v1/api-keys` rotation routes, then the service's own routes.
 */
export async function createServiceApp(deps: ServiceAppDeps, options: ServiceAppOptions): Promise<FastifyInstance> {
  const now = deps.now ?? (() => new Date());
  const extraApis = options.extraApis ?? [];
  const app = await createApiServer({ ...deps, dialectFor: options.dialectFor, document: options.document, extraDocuments: extraApis.map((api) => api.document) });
  const verifier = new KeyVerifier({
    db: deps.db,
    service: options.service,
    environment: deps.environment,
    pepper: deps.pepper,
    now: () => now().getTime(),
    cacheTtlMs: deps.keyCacheTtlMs,
  });
  const cursors = new CursorCodec(createHmac('sha256', deps.pepper).update('cursor-signing').digest('hex'));
  const scoredCursors = new ScoredCursorCodec(createHmac('sha256', deps.pepper).update('scored-cursor-signing').digest('hex'));
  const context: ApiContext = { db: deps.db, cursors, scoredCursors, now };
  await app.register(
    async (v1) => {
      await v1.register(authPlugin, { verifier });
      await v1.register(apiKeyRoutes, { db: deps.db, service: options.service, environment: deps.environment, pepper: deps.pepper, verifier, cursors });
      await options.routes(v1, context);
    },
    { prefix: '/v1' },
  );
  for (const extra of extraApis) {
    await app.register(
      async (api) => {
        await api.register(authPlugin, { verifier, dialect: options.dialectFor?.(`${extra.document.prefix}/`) ?? 'en' });
        await extra.routes(api, context);
      },
      { prefix: extra.document.prefix },
    );
  }
  return app;
}
