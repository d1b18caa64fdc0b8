import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';
import { httpPlugin, RETRY_AFTER_SECONDS, type HttpPluginOptions } from './plugin.js';
import { nameTitledSchemas } from './openapi-components.js';
import { ErrorSchema, FehlerSchema } from './responses.js';
import { serverOptions, type ServerOptionsInput } from './server-options.js';

export interface ApiDocument {
  /** Where the document is served, e.g. `/v1` → `/v1/openapi.json` and `/v1/docs`. */
  prefix: string;
  title: string;
  description: string;
}

/** A base URL of the APIs for the documents' `servers` (production, sandbox). */
export interface ApiServerUrl {
  url: string;
  description: string;
}

export interface ApiServerOptions extends ServerOptionsInput, HttpPluginOptions {
  document: ApiDocument;
  /** Where integrators reach the service, listed as the documents' `servers`. */
  servers?: ApiServerUrl[];
  /** Further APIs of the same server with documents of their own (e.g. `/leads/v1`). */
  extraDocuments?: ApiDocument[];
  /** Event-loop delay (ms) beyond which every request is answered 503 at once; default 1000. */
  maxEventLoopDelayMs?: number;
}

type OpenApiDocument = { info: object; paths?: Record<string, unknown> } & Record<string, unknown>;

/**
 * The part of the server's OpenAPI document under `document.prefix`, with that API's title and
 * only the component schemas its paths use (the English `Error` or the German `Fehler`), and its
 * titled schemas as named components (`nameTitledSchemas`).
 */
function documentFor(spec: OpenApiDocument, { prefix, title, description }: ApiDocument): OpenApiDocument {
  const operations = optionalWhenDefaulted(
    Object.fromEntries(Object.entries(spec.paths ?? {}).filter(([path]) => path.startsWith(`${prefix}/`))),
  );
  const components = (spec.components ?? {}) as { schemas?: Record<string, unknown> };
  const all = components.schemas ?? {};
  const used = new Set<string>();
  const collect = (value: unknown) => {
    for (const [, name] of JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (!used.has(name) && name in all) {
        used.add(name);
        collect(all[name]);
      }
    }
  };
  collect(operations);
  const named = nameTitledSchemas(
    operations,
    Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name))),
  );
  const { paths, schemas } = named;
  return { ...spec, info: { ...spec.info, title, description }, paths, components: { ...components, schemas } };
}

type Parameter = { in?: string; required?: boolean; schema?: { default?: unknown } };
type RequestBody = { required?: boolean; content?: Record<string, { schema?: { type?: string | string[] } }> };

/**
 * What a client may leave out, the document says so: a query parameter with a default (`limit`
 * of every list; the schema marks it required because validation fills it in), and a body whose
 * schema allows null (the status actions: "no body, or an empty object").
 */
function optionalWhenDefaulted(paths: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(paths) as Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: RequestBody }>
  >;
  for (const operation of Object.values(copy).flatMap((item) => Object.values(item))) {
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in === 'query' && parameter.required && parameter.schema?.default !== undefined)
        parameter.required = false;
    }
    const body = operation.requestBody;
    const types = Object.values(body?.content ?? {}).map((media) => media.schema?.type);
    if (body?.required && types.length > 0 && types.every((type) => Array.isArray(type) && type.includes('null')))
      body.required = false;
  }
  return copy;
}

/** What `GET /` answers: where each API of the service and its documents are (no key needed). */
function serviceIndex(documents: readonly ApiDocument[]) {
  return {
    message: 'Every API of this service is described by its OpenAPI document; send your key in the apikey header.',
    apis: documents.map(({ prefix, title }) => ({
      title,
      base_path: prefix,
      openapi: `${prefix}/openapi.json`,
      docs: `${prefix}/docs`,
    })),
  };
}

/** How long after ready the event-loop delay of the start-up's compiling is ignored: two samples. */
const START_UP_GRACE_MS = 2_000;
/**
 * When a server of this process last became ready. Process-wide: `pnpm start` builds both
 * services in one process, and the second one's compiling delays the loop of the first.
 */
let lastReadyAt = 0;

/**
 * A Fastify instance with the common stack (limits, ids, redacted logs, errors, headers) and an
 * OpenAPI 3.1 document built from the routes' TypeBox schemas, served with an interactive page.
 */
export async function createApiServer(options: ApiServerOptions): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(options));
  await app.register(httpPlugin, { dialectFor: options.dialectFor, isUnavailable: options.isUnavailable });
  // A saturated event loop answers 503 at once instead of letting every request time out. No
  // dependency checks here: a failing one would turn every route into 503 (/health/ready has them).
  app.addHook('onReady', async () => {
    lastReadyAt = Date.now();
  });
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs ?? 1000,
    // Samples of a second: a sample with no tick at all (a stretch over a second) reads as an
    // infinite delay, which it then is, except for the start-up's own compiling of the routes'
    // schemas (over a second on a busy machine), which the first samples after ready still hold.
    sampleInterval: 1000,
    pressureHandler: async (_request, _reply, type) => {
      if (type === 'eventLoopDelay' && Date.now() - lastReadyAt < START_UP_GRACE_MS) return;
      throw new ApiError('service_unavailable', { headers: { 'retry-after': RETRY_AFTER_SECONDS } });
    },
  });
  app.addSchema(ErrorSchema);
  app.addSchema(FehlerSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: options.document.title,
        description: options.document.description,
        version: '1.0.0',
        // No open-source licence is declared for the services (the client package is UNLICENSED).
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: options.servers ?? [],
      components: { securitySchemes: { apikey: { type: 'apiKey', in: 'header', name: 'apikey' } } },
      security: [{ apikey: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  const documents = [options.document, ...(options.extraDocuments ?? [])];
  app.get('/', { config: { public: true }, schema: { hide: true } }, async () => serviceIndex(documents));
  for (const document of documents) {
    // Built once, on first use (all routes are registered by then), not on every request.
    let built: OpenApiDocument | undefined;
    const spec = () => (built ??= documentFor(app.swagger() as unknown as OpenApiDocument, document));
    app.get(`${document.prefix}/openapi.json`, { config: { public: true }, schema: { hide: true } }, async () =>
      spec(),
    );
    await app.register(async (docs) => {
      await docs.register(swaggerUi, {
        routePrefix: `${document.prefix}/docs`,
        uiConfig: { deepLinking: true },
        transformSpecification: () => spec(),
      });
    });
  }
  return app;
}
