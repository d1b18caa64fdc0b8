import { randomUUID } from 'node:crypto';

export interface Answer {
  status: number;
  body: unknown;
  durationMs: number;
  /** Where a redirect points (redirects are reported, not followed: the key must not travel on). */
  location: string | null;
}

/** No HTTP answer at all (refused, unknown host, timeout, TLS): one line for the table. */
export interface NoAnswer {
  status: null;
  reason: string;
  durationMs: number;
}

export interface Request {
  baseUrl: URL;
  method: 'GET' | 'POST';
  path: string;
  key?: string;
  body?: object;
  timeoutMs: number;
}

/** One request with Node's fetch; writes carry a fresh `Idempotency-Key`. Never throws. */
export async function send({ baseUrl, method, path, key, body, timeoutMs }: Request): Promise<Answer | NoAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key !== undefined) headers.apikey = key;
  if (method === 'POST') headers['idempotency-key'] = randomUUID();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(urlOf(baseUrl, path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    const text = await response.text();
    return {
      status: response.status,
      body: parseJson(text),
      durationMs: elapsed(),
      location: response.headers.get('location'),
    };
  } catch (error) {
    return { status: null, reason: describeFailure(error, timeoutMs), durationMs: elapsed() };
  }
}

/** The path is appended to the base URL's own path, so a base URL behind a path prefix works. */
function urlOf(baseUrl: URL, path: string): URL {
  const url = new URL(baseUrl);
  const [pathname, query] = path.split('?');
  url.pathname = url.pathname.replace(/\/$/, '') + pathname;
  url.search = query ?? '';
  url.username = '';
  url.password = '';
  return url;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? error.cause : undefined;
  const code = cause instanceof Error && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  if (code !== undefined) return `${CAUSES[code] ?? 'request failed'} (${code})`;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  if (message === 'bad port') return 'request failed: fetch refuses this port (one of its "bad ports"); use another';
  return `request failed: ${message.split('\n')[0].slice(0, 120)}`;
}
