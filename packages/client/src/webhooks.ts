/** The signature header of each service's deliveries. */
export const SIGNATURE_HEADERS = { property: 'x-service-signature', agentPlatform: 'x-platform-signature' } as const;

export interface WebhookCheck {
  valid: boolean;
  reason?: 'malformed_header' | 'timestamp_outside_tolerance' | 'signature_mismatch';
}

const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Checks a delivery's signature header (`t=<unix>,v1=<hex>[,v1=<hex>]`): HMAC-SHA256 of
 * `<t>.<raw body>` with your signing secret (or either of two during a rotation). Pass the body
 * exactly as received: re-serialised JSON does not verify. Web Crypto, so it runs wherever fetch does.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secrets: string | readonly string[],
  { toleranceSeconds = 300, now = Date.now } = {},
): Promise<WebhookCheck> {
  if (!header) return { valid: false, reason: 'malformed_header' };
  let timestamp: number | undefined;
  const given: string[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) given.push(value);
  }
  if (timestamp === undefined || given.length === 0) return { valid: false, reason: 'malformed_header' };
  if (Math.abs(now() / 1000 - timestamp) > toleranceSeconds)
    return { valid: false, reason: 'timestamp_outside_tolerance' };
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const signed = new Uint8Array([...encoder.encode(`${timestamp}.`), ...body]);
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const expected = hex(await crypto.subtle.sign('HMAC', key, signed));
    if (given.some((signature) => constantTimeEqual(signature, expected))) return { valid: true };
  }
  return { valid: false, reason: 'signature_mismatch' };
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
