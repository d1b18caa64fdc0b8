import { randomBytes } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

/** Log paths that never reach the log: the API key header and anything secret. */
export const REDACTED_PATHS = [
  'req.headers.apikey',
  'headers.apikey',
  'apikey',
  '*.apikey',
  'key',
  '*.key',
  'signing_secret',
  '*.signing_secret',
  'secret',
  '*.secret',
];

export interface ServerOptionsInput {
  logLevel?: string;
  /** Where logs go (tests capture them here); defaults to stdout. */
  logStream?: DestinationStream;
  trustProxy?: boolean | string;
  bodyLimit?: number;
  requestTimeoutMs?: number;
}

/** Strips API keys from a URL before it is logged (a key in the query string is refused anyway). */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:apikey|api_key|key)=)[^&#]*/gi, '$1[REDACTED]');
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify constructor options shared by both services: timeouts, limits, ids, redacted logs. */
export function serverOptions(input: ServerOptionsInput = {}): FastifyServerOptions {
  return {
    logger: {
      level: input.logLevel ?? 'info',
      ...(input.logStream ? { stream: input.logStream } : {}),
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      serializers: {
        // Only these three fields of a request are ever logged (no headers, so no apikey).
        req: (req: { method?: string; url?: string; ip?: string }) => ({
          method: req.method,
          url: typeof req.url === 'string' ? redactUrl(req.url) : undefined,
          ip: req.ip,
        }),
      },
    },
    // Fastify's defaults are 0 (no limit); a slow client must not hold a socket for ever.
    requestTimeout: input.requestTimeoutMs ?? 30_000,
    connectionTimeout: 10_000,
    keepAliveTimeout: 72_000,
    bodyLimit: input.bodyLimit ?? 1_048_576,
    trustProxy: input.trustProxy ?? false,
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : `req_${randomBytes(12).toString('hex')}`;
    },
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  };
}
