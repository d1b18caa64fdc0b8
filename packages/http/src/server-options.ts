import { randomBytes } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import { hostname } from 'node:os';
import type { Socket } from 'node:net';
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyHttpOptions,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { pino, type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger } from 'pino';
import { ApiError, errorBody, type Dialect } from './errors.js';

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
  /** The service's id (`property`, `agent-platform`), written as `service` on every line of the server's log. */
  service?: string;
  logLevel?: string;
  /** Where logs go (tests capture them here); defaults to stdout. */
  logStream?: DestinationStream;
  trustProxy?: boolean | string;
  bodyLimit?: number;
  requestTimeoutMs?: number;
  /** Error dialect of a URL, for errors raised before routing. */
  dialectFor?: (url: string) => Dialect;
  /** The service's own filters, whose values are logged besides `limit` and `cursor` (none personal). */
  loggedQueryParameters?: readonly string[];
  /**
   * Paths whose next segment is a secret (a public feed's token): `/public/v1/feeds/` logs
   * `/public/v1/feeds/[REDACTED]/listings` in every line that shows the request's URL.
   */
  secretPathPrefixes?: readonly string[];
}

function decoded(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

const SECRET_PARAM = /([?&;](?:api[_-]?key|key|secret|token)[^=&;#]*=)[^&;#]*/gi;
const KEY_PARAM = /[?&;]api[_-]?key[^=&;#]*=/i;

/** Query parameters whose values are logged for every service: paging. Each service adds its filters. */
const PAGING_PARAMS = ['limit', 'cursor'];
const ANY_PARAM = /([?&;])([^=&;#]*)=([^&;#]*)/g;

/** What a URL needs besides its path for redaction: percent-encoding or a parameter separator. */
const NOT_PLAIN = /[%?&;]/;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The pattern of the path segment after `prefix` (`/public/v1/feeds/` → the token) wherever the
 * URL holds it: in any case, after repeated slashes, in an absolute-form request target, behind
 * other segments or in a query value.
 */
export function secretSegmentPattern(prefix: string): RegExp {
  const segments = prefix.split('/').filter(Boolean).map(escapeRegExp);
  return new RegExp(`(/+${segments.join('/+')}/+)[^/?#&;]+`, 'gi');
}

/**
 * Strips secrets from a URL before it is logged (percent-encoded parameter names included), the
 * secret path segments (`secretSegments`, see `secretSegmentPattern`) and the values of every
 * query parameter that is not one of our filters: a client that puts an e-mail address into the
 * URL must not put it into our logs.
 */
export function redactUrl(
  url: string,
  logged: ReadonlySet<string> = new Set(PAGING_PARAMS),
  secretSegments: readonly RegExp[] = [],
): string {
  // Most URLs are a plain path: nothing to decode and no parameters, only the secret segments.
  if (!NOT_PLAIN.test(url)) {
    let path = url;
    for (const pattern of secretSegments) path = path.replace(pattern, '$1[REDACTED]');
    return path;
  }
  let path = decoded(url);
  for (const pattern of secretSegments) path = path.replace(pattern, '$1[REDACTED]');
  return path
    .replace(SECRET_PARAM, '$1[REDACTED]')
    .replace(ANY_PARAM, (all, separator: string, name: string) =>
      logged.has(name) ? all : `${separator}${name}=[REDACTED]`,
    );
}

/** True when the URL carries an API key (`apikey`, `api_key`, `api-key`, however encoded). */
export function urlCarriesApiKey(url: string): boolean {
  return KEY_PARAM.test(decoded(url));
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Request ids: a random part per process and a counter (16 random bytes per request cost a
// system call each); unique across processes and restarts, which is all an id must be.
const PROCESS_PART = randomBytes(6).toString('hex');
let requestCount = 0;
const nextRequestId = () => `req_${PROCESS_PART}${(requestCount++).toString(36).padStart(8, '0')}`;

type LogMethod = (...args: unknown[]) => void;

/**
 * `request.log` and `reply.log`: pino's child with the request's id, made when something logs
 * through it. Most requests log nothing but their request line, which does not need it (see
 * OneLinePerRequest): making a child for each request (its bindings stringified, and run through
 * the redaction) was a few µs of every request.
 */
class RequestLogger {
  private made: Logger | undefined;
  /** Whether `bind` added anything to the request's id (the authenticated key's ids). */
  private bound = false;

  constructor(
    private readonly parent: Logger,
    private bindingsOfRequest: Bindings,
    readonly options: ChildLoggerOptions,
  ) {}

  get bindings(): Bindings {
    return this.bindingsOfRequest;
  }

  get hasOwnBindings(): boolean {
    return this.bound;
  }

  /** Adds fields to every later line of the request, its request line included. */
  bind(extra: Bindings): void {
    this.bindingsOfRequest = { ...this.bindingsOfRequest, ...extra };
    this.bound = true;
    if (this.made) this.made = this.made.child(extra);
  }

  /** The child Fastify's default factory would have made, with the same bindings and options. */
  get pino(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  /** The root logger it is a child of. */
  get root(): Logger {
    return this.parent;
  }

  get level(): string {
    return this.pino.level;
  }

  set level(level: string) {
    this.pino.level = level;
  }

  isLevelEnabled(level: string): boolean {
    if (this.made) return this.made.isLevelEnabled(level);
    // pino's own test (`levelComparison` is the default), at the level the child would have.
    const values = this.parent.levels.values;
    const value = values[level];
    return value !== undefined && value >= values[this.options.level ?? this.parent.level];
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.pino.child(bindings, options);
  }

  info(...args: unknown[]): void {
    (this.pino.info as LogMethod)(...args);
  }

  error(...args: unknown[]): void {
    (this.pino.error as LogMethod)(...args);
  }

  warn(...args: unknown[]): void {
    (this.pino.warn as LogMethod)(...args);
  }

  debug(...args: unknown[]): void {
    (this.pino.debug as LogMethod)(...args);
  }

  trace(...args: unknown[]): void {
    (this.pino.trace as LogMethod)(...args);
  }

  fatal(...args: unknown[]): void {
    (this.pino.fatal as LogMethod)(...args);
  }

  silent(...args: unknown[]): void {
    (this.pino.silent as LogMethod)(...args);
  }
}

/**
 * Per root logger, the logger of request lines: a child without redaction paths, at the lowest
 * level (whether a line is written is decided by the request's logger, see OneLinePerRequest).
 * pino's path redaction copied every request line to look for `apikey`, `key` and `secret` in
 * each of its fields; the line holds none of them (see `requestLine`).
 */
const lineLoggers = new WeakMap<Logger, Logger>();

function lineLogger(root: Logger): Logger {
  let logger = lineLoggers.get(root);
  if (!logger) lineLoggers.set(root, (logger = root.child({}, { level: 'trace', redact: { paths: [] } })));
  return logger;
}

/**
 * The request log: one line per request, when it is answered (Fastify's default is two).
 *
 * The line of an answered request holds only the request's id, `req` (method, redacted URL and
 * address: the `req` serializer, no headers), `res` (the status: Fastify's serializer) and the time,
 * so it is written by a logger without path redaction, field by field as the request's child
 * would write it (same bytes). Errored requests, requests whose logger is not a RequestLogger or
 * has serializers of its own, go through the request's (redacting) logger as before.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const log = reply.log as unknown;
    if (!error && log instanceof RequestLogger && log.options.serializers === undefined) {
      if (!log.isLevelEnabled('info')) return;
      const line = log.hasOwnBindings
        ? { ...log.bindings, req: request, res: reply, responseTime: reply.elapsedTime }
        : this.requestIdLogLabel === 'reqId'
          ? { reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }
          : { [this.requestIdLogLabel]: request.id, req: request, res: reply, responseTime: reply.elapsedTime };
      lineLogger(log.root).info(line, 'request completed');
      return;
    }
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Adds fields (the verified key's application and key id) to every later line of the request:
 * its own lines, errors logged while it is answered, and its request line (`request.bindLog`).
 */
export function bindRequestLog(request: FastifyRequest, bindings: Bindings): void {
  const log = request.log as unknown;
  if (log instanceof RequestLogger) return log.bind(bindings);
  // A server not built with these options: the request's own lines only (its reply keeps its logger).
  request.log = request.log.child(bindings);
}

let stdoutDestination: DestinationStream | undefined;
/**
 * Standard output, written asynchronously: lines logged while a write is under way go out
 * together in the next one (one system call per line was a large part of a request's cost).
 * pino flushes it when the process exits. One for the process, shared by its servers.
 */
function stdoutLog(): DestinationStream {
  return (stdoutDestination ??= pino.destination({ dest: 1, sync: false }));
}

/** Fastify constructor options shared by both services: timeouts, limits, ids, redacted logs. */
export function serverOptions(input: ServerOptionsInput = {}): FastifyHttpOptions<Server> {
  const logged = new Set([...PAGING_PARAMS, ...(input.loggedQueryParameters ?? [])]);
  const secretSegments = (input.secretPathPrefixes ?? []).map(secretSegmentPattern);
  const requestTimeout = input.requestTimeoutMs ?? 30_000;
  return {
    logger: {
      level: input.logLevel ?? 'info',
      // pino's own base fields, and the service's id when it is known.
      ...(input.service ? { base: { pid: process.pid, hostname: hostname(), service: input.service } } : {}),
      stream: input.logStream ?? stdoutLog(),
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      serializers: {
        // Only these three fields of a request are ever logged (no headers, so no apikey); every
        // line showing a request (completed, errored, a hook's own) goes through here.
        req: (req: { method?: string; url?: string; ip?: string }) => ({
          method: req.method,
          url: typeof req.url === 'string' ? redactUrl(req.url, logged, secretSegments) : undefined,
          ip: req.ip,
        }),
      },
    },
    // Fastify's defaults are 0 (no limit); a slow client must not hold a socket for ever.
    requestTimeout,
    // Node enforces the request timeout only when the HTTP server is created with it and with a
    // headers timeout no longer than it (Fastify sets it afterwards, which alone leaves a trickled
    // body unbounded), and checks only every `connectionsCheckingInterval` (default 30 s).
    http: { requestTimeout, headersTimeout: Math.min(10_000, requestTimeout), connectionsCheckingInterval: 1_000 },
    connectionTimeout: 10_000,
    keepAliveTimeout: 72_000,
    bodyLimit: input.bodyLimit ?? 1_048_576,
    trustProxy: input.trustProxy ?? false,
    // The client's X-Request-Id is taken only when it is a sane token (checked here, so not
    // through requestIdHeader, which Fastify would use unchecked).
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : nextRequestId();
    },
    logController: new OneLinePerRequest(),
    childLoggerFactory: (logger, bindings, options) =>
      new RequestLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger,
    // Errors before a request exists (a trickled body cut off, a malformed request line): the
    // usual error shape and headers on the raw socket, then the connection is closed.
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const apiError =
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ApiError('request_timeout')
          : new ApiError('invalid_json', {
              message: 'The request is malformed.',
              messageDe: 'Die Anfrage ist fehlerhaft.',
            });
      const body = JSON.stringify(errorBody(apiError, 'en'));
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
    // answered by the http plugin instead, in the error shape with the security headers
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Malformed or over-long URLs never reach a route: answer them like an unknown record.
    frameworkErrors: (error, request, reply) => {
      const url = request.raw.url ?? '';
      const dialect = input.dialectFor?.(url) ?? 'en';
      const apiError =
        error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError('not_found')
          : new ApiError('invalid_json', {
              message: 'The request is malformed.',
              messageDe: 'Die Anfrage ist fehlerhaft.',
            });
      const raw = reply as unknown as FastifyReply;
      void raw
        .status(apiError.status)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .type('application/json')
        .send(JSON.stringify(errorBody(apiError, dialect)));
    },
  };
}
