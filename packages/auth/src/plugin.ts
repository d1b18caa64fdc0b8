import { errorCodes, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, type Dialect } from '@platform/http';
import type { AuthContext, KeyVerifier } from './verifier.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Scope the operation requires; listed in its OpenAPI description too. */
    scope?: string;
    /** No key needed (documentation, health). */
    public?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext;
  }
}

/** A route that needs a key: its method and URL pattern with the prefix, e.g. `/v1/properties/:propertyId`. */
export interface AuthenticatedRoute {
  method: string;
  url: string;
}

export interface AuthPluginOptions {
  verifier: KeyVerifier;
  dialect?: Dialect;
  /** Receives every route the plugin guards, but `public` and HEAD ones (Fastify adds a HEAD for each GET), so tests can check that each is covered. */
  routes?: AuthenticatedRoute[];
}

/** Takes the request's key; the error to answer with when the route's scope is not granted. */
function admit(request: FastifyRequest, auth: AuthContext, scope: string | undefined): ApiError | undefined {
  request.auth = auth;
  // Who called, on every later line of the request (ids only: the key itself never reaches a log).
  request.bindLog({ application_id: auth.applicationId, key_id: auth.keyId });
  if (!scope || auth.scopes.has(scope)) return undefined;
  return new ApiError('scope_missing', {
    message: `This operation needs the scope ${scope}.`,
    messageDe: `Dieser Vorgang erfordert den Scope ${scope}.`,
    details: [{ field: scope, reason: 'not_granted' }],
  });
}

/** What Fastify answers for an async hook that rejects without a reason. */
const undefinedError = (error: unknown) => (error || new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()) as Error;

/**
 * Authenticates every request of the context it is registered in from the `apikey` header and
 * checks the route's scope, before the body is read or validated.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app, { verifier, dialect = 'en', routes }) => {
    app.decorateRequest('auth', null as unknown as AuthContext);
    // Every operation states its scope in OpenAPI: as the security requirement and in its text.
    app.addHook('onRoute', (route) => {
      const scope = route.config?.scope;
      if (route.config?.public) return;
      for (const method of [route.method].flat()) if (method !== 'HEAD') routes?.push({ method, url: route.url });
      if (!route.schema) return;
      if (!scope) {
        const note =
          dialect === 'de'
            ? 'Erforderlicher Scope: keiner außer einem gültigen Schlüssel des Kontos.'
            : 'Required scope: none beyond a valid key of the account.';
        if (!/Required scope|Erforderlicher Scope/.test(route.schema.description ?? '')) {
          route.schema = {
            ...route.schema,
            description: route.schema.description ? `${route.schema.description}\n\n${note}` : note,
          };
        }
        return;
      }
      const text = dialect === 'de' ? `Erforderlicher Scope: \`${scope}\`.` : `Required scope: \`${scope}\`.`;
      route.schema = {
        ...route.schema,
        security: [{ apikey: [scope] }],
        description: route.schema.description ? `${route.schema.description}\n\n${text}` : text,
      } as typeof route.schema;
    });
    // A plain hook calling `done`: a key found in the cache is checked without a promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const config = request.routeOptions.config;
      if (config.public) return done();
      let checked: AuthContext | Promise<AuthContext>;
      let refusal: ApiError | undefined;
      try {
        checked = verifier.check(request.headers.apikey);
        if (!('then' in checked)) refusal = admit(request, checked, config.scope);
      } catch (error) {
        return done(undefinedError(error));
      }
      if (!('then' in checked)) return done(refusal);
      checked
        .then((auth) => admit(request, auth, config.scope))
        .then(
          (scopeRefusal) => done(scopeRefusal),
          (error: unknown) => done(undefinedError(error)),
        );
    });
  },
  { name: 'platform-auth', dependencies: ['platform-http'] },
);
