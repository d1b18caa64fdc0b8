import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 over `<t>.<raw body>`, lowercase hex (the spec's `v1`). */
export function computeSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * The signature header: `t=<unix>,v1=<hex>`; during a secret rotation one `v1` per active
 * secret, so receivers holding either secret accept the delivery.
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, rawBody: string | Buffer): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${computeSignature(secret, timestamp, rawBody)}`)].join(',');
}

export type VerifyFailure = 'malformed_header' | 'timestamp_outside_tolerance' | 'signature_mismatch';

export interface VerifyResult {
  valid: boolean;
  reason?: VerifyFailure;
  /** The delivery's timestamp (unix seconds) when the header could be read. */
  timestamp?: number;
}

export interface VerifyOptions {
  /** Largest accepted difference between `t` and now; the spec's reference uses 300 s. */
  toleranceSeconds?: number;
  /** Current time in milliseconds (injectable for tests). */
  now?: () => number;
}

/**
 * Consumer-side check of a delivery: pass the raw body exactly as received (re-serialised
 * JSON does not verify), the signature header and your signing secret(s).
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string | undefined,
  secrets: string | readonly string[],
  { toleranceSeconds = 300, now = Date.now }: VerifyOptions = {},
): VerifyResult {
  if (!header) return { valid: false, reason: 'malformed_header' };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && /^\d+$/.test(value ?? '')) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? '')) signatures.push(value!);
  }
  if (timestamp === undefined || signatures.length === 0) return { valid: false, reason: 'malformed_header' };
  if (Math.abs(now() / 1000 - timestamp) > toleranceSeconds)
    return { valid: false, reason: 'timestamp_outside_tolerance', timestamp };
  const candidates = (typeof secrets === 'string' ? [secrets] : secrets).map((secret) =>
    Buffer.from(computeSignature(secret, timestamp!, rawBody)),
  );
  const match = signatures.some((signature) => {
    const given = Buffer.from(signature);
    return candidates.some((expected) => expected.length === given.length && timingSafeEqual(expected, given));
  });
  return match ? { valid: true, timestamp } : { valid: false, reason: 'signature_mismatch', timestamp };
}
