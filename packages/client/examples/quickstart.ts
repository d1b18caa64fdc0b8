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

  // Every active property, page after page.
  let active = 0;
  for await (const p of client.properties.list({ status: 'draft' })) if (p.id === property.id) active++;

  return { property, photo, listed: active };
}

/** Your endpoint: check the signature over the raw body before trusting a delivery. */
export function startWebhookReceiver(
  port: number,
  signingSecret: () => string,
  onEvent: (event: { id: string; type: string; data: unknown }) => void,
) {
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
      onEvent(JSON.parse(raw.toString('utf8')));
      res.writeHead(204).end();
    });
  }).listen(port);
}
