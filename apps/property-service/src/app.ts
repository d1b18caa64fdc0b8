import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Environment, PrismaClient } from '@platform/db';
import { CursorCodec, createApiServer, type ServerOptionsInput } from '@platform/http';
import { KeyVerifier, apiKeyRoutes, authPlugin } from '@platform/auth';
import { propertyRoutes } from './properties/routes.js';
import { createPropertyService } from './properties/service.js';

export interface PropertyAppDeps extends ServerOptionsInput {
  db: PrismaClient;
  environment: Environment;
  /** Server-side secret for key hashes; cursor signatures use a key derived from it. */
  pepper: string;
  now?: () => Date;
  keyCacheTtlMs?: number;
}

/** The property-marketing service: property API at `/v1` (the leads API will live at `/leads/v1`). */
export async function buildPropertyApp(deps: PropertyAppDeps): Promise<FastifyInstance> {
  const now = deps.now ?? (() => new Date());
  const app = await createApiServer({
    ...deps,
    dialectFor: (url) => (url.startsWith('/leads/') ? 'de' : 'en'),
    document: {
      prefix: '/v1',
      title: 'Property Marketing Service: Property API',
      description: 'Property records for sale or rent. Authenticate with an API key in the `apikey` header.',
    },
  });
  const verifier = new KeyVerifier({
    db: deps.db,
    service: 'property',
    environment: deps.environment,
    pepper: deps.pepper,
    now: () => now().getTime(),
    cacheTtlMs: deps.keyCacheTtlMs,
  });
  const cursors = new CursorCodec(createHmac('sha256', deps.pepper).update('cursor-signing').digest('hex'));
  await app.register(
    async (v1) => {
      await v1.register(authPlugin, { verifier });
      await v1.register(apiKeyRoutes, { db: deps.db, service: 'property', environment: deps.environment, pepper: deps.pepper, verifier, cursors });
      await v1.register(propertyRoutes, { properties: createPropertyService({ db: deps.db, cursors, now }) });
    },
    { prefix: '/v1' },
  );
  return app;
}
