// A complete webhook receiver for integrators: refuse bodies over 1 MiB, verify the signature over
// the raw bytes, answer 202 at once, drop repeated event ids (kept for seven days), process asynchronously.
import { createServer, type Server } from 'node:http';
import { verifySignature } from '@platform/webhooks'; // or copy src/signature.ts: it needs only node:crypto

export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

const SEVEN_DAYS_MS = 7 * 24 * 3600 * 1000;
const MAX_BODY_BYTES = 1024 * 1024; // deliveries are a few KiB; never buffer what a stranger sends without limit

export function createReceiver(options: {
  /** Your signing secret(s); during a rotation list the new and the old one. */
  secrets: string[];
  /** `x-service-signature` (property-marketing service) or `x-platform-signature` (agent platform). */
  signatureHeader?: string;
  handle: (event: WebhookEvent) => Promise<void> | void;
}): Server {
  const header = options.signatureHeader ?? 'x-service-signature';
  const seen = new Map<string, number>(); // event id → forget after; use Redis or a table when you run several instances
  return createServer((req, res) => {
    const tooLarge = () => {
      // Answer and close: the rest of the body is neither read nor kept.
      res
        .writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
        .end('payload too large', () => req.destroy());
    };
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data').removeAllListeners('end').pause();
        return tooLarge();
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks); // the exact bytes: re-serialised JSON would not verify
      const check = verifySignature(raw, req.headers[header] as string | undefined, options.secrets, {
        toleranceSeconds: 300,
      });
      if (!check.valid) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(check.reason);
        return;
      }
      res.writeHead(202).end(); // acknowledge at once; slow work must not exceed the 5 s limit
      const event = JSON.parse(raw.toString('utf8')) as WebhookEvent;
      const now = Date.now();
      for (const [id, forgetAt] of seen) if (forgetAt < now) seen.delete(id);
      if (seen.has(event.id)) return; // deliveries may repeat: same event id, handled already
      seen.set(event.id, now + SEVEN_DAYS_MS);
      setImmediate(
        () =>
          void Promise.resolve(options.handle(event)).catch((error) => console.error('webhook handler failed', error)),
      );
    });
  });
}
