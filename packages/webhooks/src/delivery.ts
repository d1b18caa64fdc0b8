import type { PrismaClient, Service } from '@platform/db';
import { newId } from '@platform/db';
import { Agent, request, type Dispatcher } from 'undici';
import type { HeaderNames } from './catalogue.js';
import { DELIVERY_TIMEOUT_MS, PAUSE_AFTER_MS, RETRY_DELAYS_MS, retryDelay } from './schedule.js';
import type { SecretBox } from './secret-box.js';
import { signatureHeader } from './signature.js';
import { recordPause, storeFor, type AttemptRecord } from './delivery-store-sql.js';
import { guardedLookup, type Resolver, type SsrfPolicy } from './ssrf.js';

export interface DeliveryDeps {
  db: PrismaClient;
  secrets: SecretBox;
  headersFor: (service: Service) => HeaderNames;
  now: () => Date;
  dispatcher: Dispatcher;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** Told of every recorded attempt (metrics). */
  onAttempt?: (attempt: AttemptReport) => void;
}

/** An attempt's outcome and, for a success, how long after the event it arrived. */
export interface AttemptReport {
  service: Service;
  outcome: Exclude<DeliveryOutcome, 'skipped'>;
  /** From the event's creation to this attempt's end. */
  sinceEventSeconds: number;
}

export type DeliveryOutcome = 'succeeded' | 'retry' | 'failed' | 'held' | 'skipped';

const EXCERPT_BYTES = 512;

/**
 * The HTTP client of deliveries: every connection goes to an address the SSRF guard checked.
 * `resolver` replaces the system's DNS (tests; the same one the registration check uses).
 */
export function deliveryDispatcher(policy: SsrfPolicy, options: { resolver?: Resolver } = {}): Agent {
  return new Agent({
    connect: { lookup: guardedLookup(policy, options.resolver) as never, timeout: DELIVERY_TIMEOUT_MS },
    headersTimeout: DELIVERY_TIMEOUT_MS,
    bodyTimeout: DELIVERY_TIMEOUT_MS,
  });
}

interface AttemptResult {
  statusCode: number | null;
  errorClass: string | null;
  excerpt: string | null;
}

async function send(
  deps: DeliveryDeps,
  url: string,
  payload: string,
  headers: Record<string, string>,
): Promise<AttemptResult> {
  try {
    const res = await request(url, {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/json', 'user-agent': 'platform-webhooks/1.0', ...headers },
      dispatcher: deps.dispatcher,
      signal: AbortSignal.timeout(deps.timeoutMs ?? DELIVERY_TIMEOUT_MS),
    });
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of res.body) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= EXCERPT_BYTES) break; // the rest is not read
    }
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const errorClass = ok ? null : res.statusCode >= 300 && res.statusCode < 400 ? 'redirect' : 'http_status';
    return { statusCode: res.statusCode, errorClass, excerpt: responseExcerpt(Buffer.concat(chunks)) };
  } catch (error) {
    const err = error as { name?: string; code?: string; cause?: { code?: string } };
    const code = err.code ?? err.cause?.code;
    const errorClass =
      err.name === 'TimeoutError' ||
      err.name === 'AbortError' ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT' ||
      code === 'UND_ERR_CONNECT_TIMEOUT'
        ? 'timeout'
        : code === 'EBLOCKED'
          ? 'blocked_address'
          : 'connection_error';
    return { statusCode: null, errorClass, excerpt: null };
  }
}

/**
 * The stored excerpt of a response body: its first 512 bytes as text that PostgreSQL accepts
 * whatever the receiver sent. Invalid UTF-8 and NUL (which a text column refuses) become U+FFFD;
 * a character cut at the byte limit is left out. Null for an empty body.
 */
export function responseExcerpt(body: Buffer): string | null {
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(body.subarray(0, EXCERPT_BYTES), {
    stream: true,
  });
  return text.replaceAll('\u0000', '\uFFFD') || null;
}

/** Decrypted secrets by ciphertext: decrypting once per endpoint and rotation is enough. */
const secretCache = new Map<string, string>();
function decryptCached(box: SecretBox, ciphertext: string): string {
  let plain = secretCache.get(ciphertext);
  if (plain === undefined) {
    if (secretCache.size > 10_000) secretCache.clear();
    plain = box.decrypt(ciphertext);
    secretCache.set(ciphertext, plain);
  }
  return plain;
}

/**
 * One attempt of one delivery. `attempt` is 1 for the first try; the caller (the BullMQ worker)
 * retries on `retry` after the schedule's delay. Safe to run twice for the same attempt
 * (BullMQ is at-least-once): finished deliveries are skipped. The hot path is one read and one
 * write statement.
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  deliveryId: string,
  attempt: number,
): Promise<DeliveryOutcome> {
  const store = storeFor(deps.db);
  const delivery = await store.load.call(deliveryId);
  if (!delivery || delivery.status !== 'pending' || delivery.endpoint_deleted) return 'skipped'; // a deleted endpoint's deliveries are removed by the sweep
  if (delivery.endpoint_status === 'paused') {
    await deps.db.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'held', next_attempt_at: null, updated_at: deps.now() },
    });
    return 'held';
  }
  const startedAt = deps.now();
  const secrets = [decryptCached(deps.secrets, delivery.secret_encrypted)];
  if (
    delivery.previous_secret_encrypted &&
    delivery.previous_secret_expires_at &&
    delivery.previous_secret_expires_at > startedAt
  ) {
    secrets.push(decryptCached(deps.secrets, delivery.previous_secret_encrypted));
  }
  const names = deps.headersFor(delivery.service);
  const clockStart = performance.now();
  const result = await send(deps, delivery.url, delivery.payload, {
    [names.event]: delivery.type,
    [names.delivery]: delivery.id,
    [names.signature]: signatureHeader(secrets, Math.floor(startedAt.getTime() / 1000), delivery.payload),
  });
  const durationMs = Math.round(performance.now() - clockStart);
  const at = deps.now();
  const outcome = decide(deps, result, attempt, delivery.failing_since ?? at, at);
  const delay = outcome === 'retry' ? retryDelay(attempt, deps.retryDelaysMs ?? RETRY_DELAYS_MS)! : 0;
  const record: AttemptRecord = {
    attemptId: newId('att', at.getTime()),
    deliveryId: delivery.id,
    endpointId: delivery.endpoint_id,
    startedAt,
    at,
    statusCode: result.statusCode,
    durationMs,
    errorClass: result.errorClass,
    excerpt: result.excerpt,
    status: outcome === 'retry' ? 'pending' : outcome,
    nextAttemptAt: outcome === 'retry' ? new Date(at.getTime() + delay) : null,
    ok: outcome === 'succeeded',
  };
  if (outcome === 'held') await recordPause(deps.db, record);
  else await store.record.call(record);
  deps.onAttempt?.({
    service: delivery.service,
    outcome,
    sinceEventSeconds: (at.getTime() - delivery.event_created_at.getTime()) / 1000,
  });
  return outcome;
}

function decide(
  deps: DeliveryDeps,
  result: AttemptResult,
  attempt: number,
  failingSince: Date,
  at: Date,
): Exclude<DeliveryOutcome, 'skipped'> {
  if (result.errorClass === null) return 'succeeded';
  if (at.getTime() - failingSince.getTime() >= PAUSE_AFTER_MS) return 'held'; // 24 h without success: pause the endpoint
  return retryDelay(attempt, deps.retryDelaysMs ?? RETRY_DELAYS_MS) === undefined ? 'failed' : 'retry';
}
