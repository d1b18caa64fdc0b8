import { createServer } from 'node:http';
import {
  createPropertyClient,
  idempotencyKey,
  multipart,
  SIGNATURE_HEADERS,
  unwrap,
  verifyWebhook,
} from '@platform/client';

/** Creates a property, uploads a photo, subscribes an HTTPS endpoint and changes the property. */
export async function quickstart(options: {
  baseUrl: string;
  apiKey: string;
  webhookUrl: string;
  photo: Blob;
  keepSigningSecret: (secret: string) => void;
}) {
  const client = createPropertyClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });

  // 1. A property (a retry with the same Idempotency-Key creates nothing twice).
  const property = await unwrap(
    client.POST('/v1/properties', {
      body: {
        type: 'apartment',
        title: 'Altbau mit Balkon',
        address: { postal_code: '10115', city: 'Berlin' },
        rooms: 3,
      },
      headers: { 'Idempotency-Key': idempotencyKey() },
    }),
  );

  // 2. A photo, sent as multipart/form-data.
  const photo = await unwrap(
    client.POST('/v1/properties/{propertyId}/media', {
      params: { path: { propertyId: property.id } },
      body: { kind: 'photo', title: 'Front', file: options.photo },
      bodySerializer: multipart,
    }),
  );

  // 3. A webhook: keep its signing secret now, it is shown only once and deliveries can come at once.
  const webhook = await unwrap(
    client.POST('/v1/webhooks', { body: { url: options.webhookUrl, events: ['property.updated'] } }),
  );
  options.keepSigningSecret(webhook.signing_secret);

  // 4. A change, which is delivered as `property.updated`.
  await unwrap(
    client.PATCH('/v1/properties/{propertyId}', { params: { path: { propertyId: property.id } }, body: { rooms: 4 } }),
  );

  // 5. On the market: a draft becomes active.
  await unwrap(client.POST('/v1/properties/{propertyId}/activate', { params: { path: { propertyId: property.id } } }));

  // Every active property, page after page (ours among them now).
  let listed = 0;
  for await (const p of client.properties.list({ status: 'active' })) if (p.id === property.id) listed++;

  return { property, photo, listed };
}

export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

const SEVEN_DAYS_MS = 7 * 24 * 3600 * 1000;

/**
 * The event ids already taken, each forgotten after seven days: deliveries come at least once, so
 * an event can come again (a retry after a lost answer, a redelivery). In memory for the example;
 * in production a table or Redis (`SET <id> 1 NX PX 604800000`), shared by every instance and
 * kept across restarts.
 */
export function seenEventIds(now: () => number = Date.now) {
  const forgetAt = new Map<string, number>(); // in insertion order, which is the order they expire in
  return {
    /** True the first time an id comes within seven days, false for a repeat. */
    firstTime(id: string): boolean {
      const at = now();
      for (const [seen, until] of forgetAt) {
        if (until > at) break;
        forgetAt.delete(seen);
      }
      if (forgetAt.has(id)) return false;
      forgetAt.set(id, at + SEVEN_DAYS_MS);
      return true;
    },
  };
}

/**
 * Your endpoint: check the signature over the raw body before trusting a delivery, answer 202 at
 * once (a 2xx is expected within five seconds), drop an event id taken in the last seven days,
 * and do the work afterwards. Once answered, the delivery counts as done: a failure in `onEvent`
 * is yours to retry.
 */
export function startWebhookReceiver(
  port: number,
  signingSecret: () => string,
  onEvent: (event: WebhookEvent) => Promise<void> | void,
  seen = seenEventIds(),
) {
  const processLater = (event: WebhookEvent) =>
    setImmediate(() =>
      Promise.resolve()
        .then(() => onEvent(event))
        .catch((error: unknown) => console.error('webhook event not processed', event.id, error)),
    );
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const check = await verifyWebhook(
        raw,
        req.headers[SIGNATURE_HEADERS.property] as string | undefined,
        signingSecret(),
      );
      if (!check.valid) return void res.writeHead(401).end(check.reason);
      const event = JSON.parse(raw.toString('utf8')) as WebhookEvent; // the signed body: its `id` can be trusted
      res.writeHead(202).end();
      if (seen.firstTime(event.id)) processLater(event);
    });
  }).listen(port);
}
