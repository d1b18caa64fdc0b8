import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, errorBody, validationError, type Dialect } from './errors.js';
import { mapAjvErrors, validatorCompiler } from './validation.js';
import { summariseError } from './error-summary.js';
import { bindRequestLog, urlCarriesApiKey } from './server-options.js';
import { RouteMethods } from './route-methods.js';
import { queryLimitConstraint, tooLargeError } from './request-limits.js';

const MAX_ID_LENGTH = 100;

export interface HttpPluginOptions {
  /** Which error dialect a request speaks; the property service answers `/leads/` in German. */
  dialectFor?: (url: string) => Dialect;
  /** Errors that mean a dependency (database, queue) is briefly unreachable: 503 with `Retry-After`, not 500. */
  isUnavailable?: (error: unknown) => boolean;
}

/** Seconds a client is asked to wait after a 503. */
export const RETRY_AFTER_SECONDS = '5';

declare module 'fastify' {
  interface FastifyRequest {
    dialect: Dialect;
    /** Adds fields to every later log line of the request, its request line included (the key's ids once verified). */
    bindLog(bindings: Record<string, unknown>): void;
  }
  interface FastifyContextConfig {
    /**
     * The answer shows a secret once (a new API key, a webhook signing secret): it is never kept
     * anywhere, not even for an Idempotency-Key replay (a retry runs again).
     */
    showsSecretOnce?: boolean;
  }
}

/**
 * The common stack of both services: strict validation, one error handler that shapes every
 * error body, the not-found answer and the security headers on every response.
 */
export const httpPlugin = fp<HttpPluginOptions>(
  async (app, options) => {
    const dialectFor = options.dialectFor ?? (() => 'en' as const);
    app.setValidatorCompiler(validatorCompiler);
    app.removeContentTypeParser(['text/plain']); // bodies are JSON only (415 otherwise)
    // Many clients send `Content-Type: application/json` with an empty body on action routes;
    // that is no body rather than malformed JSON. Routes that need a body still say so (422).
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    // PATCH bodies may also name their media type, application/merge-patch+json (RFC 7396).
    app.addContentTypeParser(
      ['application/json', 'application/merge-patch+json'],
      { parseAs: 'string' },
      (request, body, done) => {
        const text = body.toString();
        if (text.trim() === '') done(null, undefined);
        else
          parseJson(request, text, (error, value) =>
            done(error ?? (text.includes('\\u0000') ? nulCharacterError(value) : null), value),
          );
      },
    );
    app.decorateRequest('dialect', 'en');
    app.decorateRequest('bindLog', function (this: FastifyRequest, bindings: Record<string, unknown>) {
      bindRequestLog(this, bindings);
    });
    const routeMethods = new RouteMethods();
    app.addHook('onRoute', (route) => routeMethods.add(route.url, route.method));
    // While the server closes, requests still arriving on open connections get the usual 503 body
    // and headers (Fastify's own closing answer has neither) and the connection is closed.
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    // The hooks below run for every request: plain functions that call `done` (an async hook
    // costs a promise and a turn of the microtask queue each).
    app.addHook('onRequest', (request, _reply, done) => {
      request.dialect = dialectFor(request.url);
      if (closing)
        return done(
          new ApiError('service_unavailable', {
            headers: { 'retry-after': RETRY_AFTER_SECONDS, connection: 'close' },
          }),
        );
      // Keys belong in the apikey header only; one in the URL is refused on every route.
      if (urlCarriesApiKey(request.url)) return done(new ApiError('api_key_in_query'));
      done();
    });
    // Path ids that cannot exist (too long, control characters) are answered like missing records.
    app.addHook('preValidation', (request, _reply, done) => {
      const params = request.params as Record<string, unknown> | undefined;
      for (const name in params) {
        if (!Object.hasOwn(params, name)) continue;
        const value = params[name];
        if (typeof value === 'string' && (value.length > MAX_ID_LENGTH || hasControlCharacter(value)))
          return done(new ApiError('not_found'));
      }
      // PostgreSQL refuses NUL in text; control characters are never meaningful in a filter.
      const query = request.query as Record<string, unknown> | undefined;
      for (const field in query) {
        if (!Object.hasOwn(query, field)) continue;
        const value = query[field];
        const values = Array.isArray(value) ? value : [value];
        if (values.some((v) => typeof v === 'string' && hasControlCharacter(v)))
          return done(validationError([{ field: field.slice(0, MAX_ID_LENGTH), reason: 'invalid_format' }]));
      }
      done();
    });
    // Query coercion turns `limit=1e400` into Infinity, which passes the schema's integer bounds.
    app.addHook('preHandler', (request, _reply, done) => {
      const limit = (request.query as Record<string, unknown> | undefined)?.limit;
      if (typeof limit === 'number' && !Number.isSafeInteger(limit))
        return done(
          validationError([{ field: 'limit', reason: 'out_of_range', constraint: queryLimitConstraint(request) }]),
        );
      done();
    });
    app.addHook('onSend', (request, reply, _payload, done) => {
      reply.header('cache-control', 'no-store');
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-request-id', request.id);
      done();
    });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      const allowed = routeMethods.allowed(path);
      // A known path with a method it lacks; a method it has that still lands here (an id longer
      // than the router takes) is a missing record.
      if (allowed.length > 0 && !allowed.includes(request.method))
        return sendError(request, reply, methodNotAllowed(request.method, path, allowed));
      const route = `${request.method} ${path}`;
      sendError(
        request,
        reply,
        new ApiError('not_found', { message: `No route ${route}.`, messageDe: `Keine Route ${route}.` }),
      );
    });
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const apiError = options.isUnavailable?.(error)
        ? new ApiError('service_unavailable', { headers: { 'retry-after': RETRY_AFTER_SECONDS } })
        : toApiError(error, request);
      if (apiError.code === 'service_unavailable')
        request.log.warn({ error: summariseError(error) }, 'dependency unavailable');
      else if (apiError.status >= 500) request.log.error({ error: summariseError(error) }, 'unexpected error');
      sendError(request, reply, apiError);
    });
  },
  { name: 'platform-http', fastify: '5.x' },
);

function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError): void {
  if (error.headers) reply.headers(error.headers);
  void reply.status(error.status).type('application/json').send(errorBody(error, request.dialect));
}

function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) {
    const prefix = error.validationContext === 'body' ? '' : (error.validationContext ?? '');
    return new ApiError('validation_failed', { details: mapAjvErrors(error.validation as never, prefix) });
  }
  const status = error.statusCode ?? 500;
  if (status === 415) return new ApiError('unsupported_media_type');
  if (status === 413) return tooLargeError(request.routeOptions.bodyLimit);
  if (status === 408) return new ApiError('request_timeout');
  if (status === 429) return new ApiError('rate_limited');
  if (status === 404) return new ApiError('not_found');
  if (status === 400 && (error.code?.startsWith('FST_ERR_CTP') || error.name === 'SyntaxError')) {
    return new ApiError(
      'invalid_json',
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? { message: 'The request body is empty.', messageDe: 'Der Anfrageinhalt ist leer.' }
        : {},
    );
  }
  if (status >= 400 && status < 500)
    return new ApiError('invalid_json', {
      message: 'The request is malformed.',
      messageDe: 'Die Anfrage ist fehlerhaft.',
    });
  return new ApiError('internal_error', {
    message: `An unexpected error occurred (request ${request.id}).`,
    messageDe: `Ein unerwarteter Fehler ist aufgetreten (Anfrage ${request.id}).`,
  });
}

function methodNotAllowed(method: string, path: string, allowed: readonly string[]): ApiError {
  const list = allowed.join(', ');
  return new ApiError('method_not_allowed', {
    message: `${path} does not answer ${method}; it answers ${list}.`,
    messageDe: `${path} beantwortet ${method} nicht, nur ${list}.`,
    headers: { allow: list },
  });
}

/** PostgreSQL text cannot hold NUL characters; name the field that carries one. */
function nulCharacterError(value: unknown): ApiError | null {
  const field = findNul(value, []);
  return field ? new ApiError('validation_failed', { details: [{ field, reason: 'invalid_format' }] }) : null;
}

function findNul(value: unknown, path: string[]): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'body' : undefined;
  if (value && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key].join('.');
      const found = findNul(member, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) < 32) return true;
  return false;
}
