import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { httpPlugin, type HttpPluginOptions } from './plugin.js';
import { ErrorSchema, FehlerSchema } from './responses.js';
import { serverOptions, type ServerOptionsInput } from './server-options.js';

export interface ApiDocument {
  /** Where the document is served, e.g. `/v1` → `/v1/openapi.json` and `/v1/docs`. */
  prefix: string;
  title: string;
  description: string;
}

export interface ApiServerOptions extends ServerOptionsInput, HttpPluginOptions {
  document: ApiDocument;
}



/**
 * A Fastify instance with the common stack (limits, ids, redacted logs, errors, headers) and an
 * OpenAPI 3.1 document built from the routes' TypeBox schemas, served with an interactive page.
 */
export async function createApiServer(options: ApiServerOptions): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(options));
  await app.register(httpPlugin, { dialectFor: options.dialectFor });
  app.addSchema(ErrorSchema);
  app.addSchema(FehlerSchema);
  const { prefix, title, description } = options.document;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title, description, version: '1.0.0' },
      components: { securitySchemes: { apikey: { type: 'apiKey', in: 'header', name: 'apikey' } } },
      security: [{ apikey: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  app.get(`${prefix}/openapi.json`, { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, { routePrefix: `${prefix}/docs`, uiConfig: { deepLinking: true } });
  return app;
}
