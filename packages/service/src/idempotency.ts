import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PrismaClient } from '@platform/db';
import { ApiError, validationError, type Dialect } from '@platform/http';

export interface IdempotencyPluginOptions {
  db: PrismaClient;
  now: () => Date;
  dialect: Dialect;
}

/** How long a key and its first response are kept; an older row counts as absent. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim without an answer holds its key unless renewed: the process serving the
 * request renews its claims every RENEW_EVERY_MS, so a claim outlives its process (killed, out of
 * memory) by at most the lease, and a retry through another instance runs soon after.
 */
export const RUNNING_LEASE_MS = 20_000;
const RENEW_EVERY_MS = 5_000;
const HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
/** Larger (or streamed) responses are not kept: the key is released, a retry runs again. */
const MAX_STORED_BODY_BYTES = 1_048_576;
/** The response headers a replay repeats; the others (rate limits, ids, deprecation) are the replay's own. */
const REPLAYED_HEADERS = ['content-type', 'location'] as const;

interface Claim {
  applicationId: string;
  key: string;
  state: 'running' | 'finished';
  aborted: boolean;
}

interface StoredRow {
  fingerprint: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Uint8Array | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
}

/**
 * `Idempotency-Key` on the POSTs of the authenticated context it is registered in (after auth),
 * with Stripe's semantics: the first response (status < 500) is kept 24 h per application and
 * key and replayed to a retry of the same request; the same key with another request is 422, a
 * retry while the first still runs 409. Without the header no query is made.
 *
 * The claim is made in `preValidation`: the JSON body is parsed but not yet validated (nor changed
 * by defaults), so a 422 of the schema is kept and replayed like any 4xx. Bodies the parser refuses
 * (malformed JSON, 415) are answered before and never kept: a retry gets the same answer anyway.
 *
 * Only a POST can hold a claim, so the hooks are the POST routes' own (added by `onRoute`, ahead
 * of any hooks a route has itself; no route of the context is registered before this plugin):
 * other requests do not run them, nor listen for an abort.
 */
export const idempotency = fp<IdempotencyPluginOptions>(
  async (app, { db, now }) => {
    app.decorateRequest('idempotencyClaim', null);
    const running = new Set<Claim>();
    const renewal = setInterval(() => {
      if (running.size > 0)
        renew(db, [...running], now()).catch((error: unknown) =>
          app.log.error({ error: String(error) }, 'idempotency claims not renewed'),
        );
    }, RENEW_EVERY_MS);
    renewal.unref();
    app.addHook('onClose', async () => clearInterval(renewal));
    const finish = (claim: Claim) => {
      claim.state = 'finished';
      running.delete(claim);
    };

    const claimKey = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'POST' || request.headers[HEADER] === undefined || !request.auth) return;
      const key = validKey(request.headers[HEADER]);
      const applicationId = request.auth.applicationId;
      const fingerprint = fingerprintOrRefuse(request);
      const at = now();
      // One statement claims a new key or one whose 24 h are over; otherwise the row is read.
      const claimed = await db.$queryRaw<unknown[]>`
        INSERT INTO idempotency_keys (application_id, key, fingerprint, created_at)
        VALUES (${applicationId}, ${key}, ${fingerprint}, ${at})
        ON CONFLICT (application_id, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, created_at = EXCLUDED.created_at,
              response_status = NULL, response_headers = NULL, response_body = NULL, completed_at = NULL
          WHERE idempotency_keys.created_at <= ${new Date(at.getTime() - IDEMPOTENCY_KEY_TTL_MS)}
             -- A claim whose process died before it answered (killed, out of memory) is free again
             -- once its lease ran out unrenewed.
             OR (idempotency_keys.completed_at IS NULL AND idempotency_keys.created_at <= ${new Date(at.getTime() - RUNNING_LEASE_MS)})
        RETURNING 1`;
      if (claimed.length === 1) {
        request.idempotencyClaim = { applicationId, key, state: 'running', aborted: false };
        running.add(request.idempotencyClaim);
        return;
      }
      const [row] = await db.$queryRaw<StoredRow[]>`
        SELECT fingerprint, response_status, response_headers, response_body FROM idempotency_keys
        WHERE application_id = ${applicationId} AND key = ${key}`;
      // Released between the two statements (the first failed): the client may simply retry.
      if (!row || row.response_status === null) {
        if (row && row.fingerprint !== fingerprint) throw reused();
        throw new ApiError('conflict', {
          message: 'A request with this Idempotency-Key is still running; retry shortly.',
          messageDe: 'Eine Anfrage mit diesem Idempotency-Key läuft noch; bitte gleich noch einmal versuchen.',
          headers: { 'retry-after': '1' },
        });
      }
      if (row.fingerprint !== fingerprint) throw reused();
      return replay(reply, row);
    };

    const markAborted = async (request: FastifyRequest) => {
      if (request.idempotencyClaim) request.idempotencyClaim.aborted = true;
    };

    const keepAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const claim = request.idempotencyClaim;
      if (!claim || claim.state !== 'running') return payload;
      finish(claim);
      // A 204 has no payload; a stream (a download) is never kept.
      const body =
        payload == null
          ? Buffer.alloc(0)
          : typeof payload === 'string'
            ? Buffer.from(payload)
            : Buffer.isBuffer(payload)
              ? payload
              : null;
      const status = reply.statusCode;
      // An error answer to a request the client gave up on (a cut-off upload) says nothing about a
      // retry; a success is kept even then, since its effect happened.
      const aborted = claim.aborted || request.raw.aborted || request.raw.socket?.destroyed === true;
      // A secret shown once would lie here in plaintext for a day (keys are kept only as HMACs,
      // signing secrets only encrypted): released instead, a retry runs again.
      const showsSecret = request.routeOptions.config.showsSecretOnce === true;
      const keep =
        status < 500 &&
        body !== null &&
        body.length <= MAX_STORED_BODY_BYTES &&
        !(aborted && status >= 400) &&
        !showsSecret;
      try {
        if (keep) await store(db, claim, now(), status, replayedHeaders(reply), body);
        else await release(db, claim);
      } catch (error) {
        request.log.error(
          { error: error instanceof Error ? error.message : String(error) },
          'idempotency record not written',
        );
        // After a success the effect happened: the claim stays (its lease, no longer renewed, frees
        // it), so that a retry is 409 for a while rather than a second run. After a failure the retry may run.
        if (!(keep && status < 400)) await release(db, claim).catch(() => {});
      }
      return payload;
    };

    // A response that never passed `onSend` (an error in a later hook) must not hold its key.
    const releaseUnanswered = async (request: FastifyRequest) => {
      const claim = request.idempotencyClaim;
      if (!claim || claim.state !== 'running') return;
      finish(claim);
      await release(db, claim).catch((error: unknown) =>
        request.log.error({ error: String(error) }, 'idempotency key not released'),
      );
    };

    app.addHook('onRoute', (route) => {
      if (![route.method].flat().includes('POST')) return;
      route.preValidation = [claimKey, ...hooksOf(route.preValidation)];
      route.onRequestAbort = [markAborted, ...hooksOf(route.onRequestAbort)];
      route.onSend = [keepAnswer, ...hooksOf(route.onSend)];
      route.onResponse = [releaseUnanswered, ...hooksOf(route.onResponse)];
    });
  },
  { name: 'platform-idempotency', dependencies: ['platform-http', 'platform-auth'] },
);

/** A route option's hooks as a list (the option takes one function or several). */
function hooksOf<H>(hooks: H | H[] | undefined): H[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

function validKey(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header.join(', ') : (header ?? '');
  if (value.length > MAX_KEY_LENGTH)
    throw validationError(
      [{ field: 'Idempotency-Key', reason: 'too_long' }],
      `The Idempotency-Key is longer than ${MAX_KEY_LENGTH} characters.`,
      `Der Idempotency-Key ist länger als ${MAX_KEY_LENGTH} Zeichen.`,
    );
  if (!PRINTABLE_ASCII.test(value)) {
    throw validationError(
      [{ field: 'Idempotency-Key', reason: 'invalid_format' }],
      'The Idempotency-Key must be 1 to 255 printable ASCII characters.',
      'Der Idempotency-Key muss aus 1 bis 255 druckbaren ASCII-Zeichen bestehen.',
    );
  }
  return value;
}

/** The fingerprint; a body nested too deeply to walk (thousands of levels) is refused, not a 500. */
function fingerprintOrRefuse(request: FastifyRequest): string {
  try {
    return fingerprintOf(request);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw validationError(
      [{ field: 'body', reason: 'not_allowed' }],
      'The body is nested too deeply.',
      'Der Inhalt ist zu tief verschachtelt.',
    );
  }
}

const reused = () =>
  new ApiError('idempotency_key_reused', {
    message: 'The Idempotency-Key was used before with a different request (method, path or body).',
    messageDe: 'Der Idempotency-Key wurde schon für eine andere Anfrage (Methode, Pfad oder Inhalt) verwendet.',
  });

/**
 * sha256 of method, URL (path and query) and body. A JSON body counts by its content with sorted
 * keys, so a retry that serialises the same object in another key order is the same request.
 *
 * Multipart uploads are streamed to storage by the handler and never buffered, so their bytes do
 * not exist yet when the key is claimed (and hashing them on the way would come too late to
 * decide a replay without storing the file again). They count by their media type without the
 * boundary and their Content-Length: a retry of the same upload matches (client libraries keep
 * the boundary's length), another file of another size is 422. The accepted gap: another file of
 * exactly the same size with the same key is answered with the first upload's response, i.e. the
 * client's mistake leads to no second write rather than to a 422.
 */
export function fingerprintOf(request: Pick<FastifyRequest, 'method' | 'url' | 'headers' | 'body'>): string {
  const hash = createHash('sha256').update(`${request.method}\n${request.url}\n`);
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type.startsWith('multipart/')) hash.update(`${type}\n${request.headers['content-length'] ?? 'chunked'}`);
  else hash.update(canonicalJson(request.body));
  return hash.digest('hex');
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, member]) => member !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function replayedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

function replay(reply: FastifyReply, row: StoredRow): FastifyReply {
  return reply
    .status(row.response_status!)
    .headers({ ...row.response_headers, 'idempotent-replayed': 'true' })
    .send(Buffer.from(row.response_body ?? new Uint8Array()));
}

async function store(
  db: PrismaClient,
  claim: Claim,
  at: Date,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
): Promise<void> {
  await db.$executeRaw`
    UPDATE idempotency_keys
    SET response_status = ${status}, response_headers = ${JSON.stringify(headers)}::jsonb, response_body = ${body}, completed_at = ${at}
    WHERE application_id = ${claim.applicationId} AND key = ${claim.key} AND completed_at IS NULL`;
}

/** Moves the lease of claims still running forward (the claim's time is the lease's start). */
async function renew(db: PrismaClient, claims: Claim[], at: Date): Promise<void> {
  await db.$executeRaw`
    UPDATE idempotency_keys SET created_at = ${at}
    FROM unnest(${claims.map((c) => c.applicationId)}::text[], ${claims.map((c) => c.key)}::text[]) AS claim(application_id, key)
    WHERE idempotency_keys.application_id = claim.application_id AND idempotency_keys.key = claim.key
      AND idempotency_keys.completed_at IS NULL`;
}

async function release(db: PrismaClient, claim: Pick<Claim, 'applicationId' | 'key'>): Promise<void> {
  await db.$executeRaw`DELETE FROM idempotency_keys WHERE application_id = ${claim.applicationId} AND key = ${claim.key} AND completed_at IS NULL`;
}
