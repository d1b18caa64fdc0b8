// What the restore drill writes through the APIs: the records of both services (with uploads and
// generated PDFs), and a loop of writes that goes on while the backup is taken.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { until } from '@platform/testkit';

export interface Api {
  (method: string, path: string, body?: object | FormData): Promise<Response>;
}

/** A client of one service with one key: JSON or multipart bodies. */
export function apiOf(baseUrl: string, key: string): Api {
  return (method, path, body) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: { apikey: key, ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}) },
      body: body instanceof FormData ? body : body && JSON.stringify(body),
    });
}

/** The answer's JSON when its status is the expected one; otherwise an error naming both. */
export async function expectJson<T = { id: string }>(response: Promise<Response>, status: number): Promise<T> {
  const answer = await response;
  const text = await answer.text();
  if (answer.status !== status) throw new Error(`${answer.url}: ${answer.status} instead of ${status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A JPEG of its own bytes (noise), so that every upload is a blob of its own. */
async function photo(): Promise<FormData> {
  const [width, height] = [320, 240];
  const jpeg = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('kind', 'photo');
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
  return form;
}

function modelCard(): FormData {
  const form = new FormData();
  form.append('kind', 'model_card');
  form.append(
    'file',
    new Blob([`# Model card ${randomBytes(4).toString('hex')}\n`], { type: 'text/markdown' }),
    'card.md',
  );
  return form;
}

const property = (title: string) => ({
  type: 'apartment',
  title,
  address: { postal_code: '10115', city: 'Berlin' },
  purchase_price_eur: 420_000,
});

export const createProperty = (api: Api, title: string) =>
  expectJson(api('POST', '/v1/properties', property(title)), 201);
export const uploadPhoto = async (api: Api, propertyId: string) =>
  expectJson(api('POST', `/v1/properties/${propertyId}/media`, await photo()), 201);
export const generateListing = (api: Api, propertyId: string) =>
  expectJson(api('POST', `/v1/properties/${propertyId}/listings`), 202);
export const createProspect = (api: Api, n: number) =>
  expectJson(
    api('POST', '/leads/v1/interessenten', {
      nachname: `Drill ${n}`,
      email: `drill-${n}-${randomBytes(3).toString('hex')}@example.invalid`,
      einwilligung: { zweck: 'Wiederherstellungsprobe', erteilt_am: new Date().toISOString() },
    }),
    201,
  );
export const createAgent = (api: Api, name: string) =>
  expectJson(
    api('POST', '/v1/agents', {
      name,
      owning_team: 'drill',
      description: 'Summarises documents.',
      capabilities: ['summarise'],
      chargeback_rate: { amount_cents: 5, unit: 'per_request' },
    }),
    201,
  );
export const uploadModelCard = (api: Api, agentId: string) =>
  expectJson(api('POST', `/v1/agents/${agentId}/artifacts`, modelCard()), 201);
export const generateCatalogEntry = (api: Api, agentId: string) =>
  expectJson(api('POST', `/v1/agents/${agentId}/catalog-entries`), 202);
export const reportUsage = (api: Api, agentId: string, n: number) =>
  expectJson(
    api('POST', `/v1/agents/${agentId}/usage`, {
      records: [
        {
          client_id: `drill-${n}`,
          team: 'Accounts payable',
          quantity: 1,
          unit: 'per_request',
          occurred_at: new Date().toISOString(),
        },
      ],
    }),
    200,
  );

/** Waits until the document at `path` is `completed`. */
export const completed = (api: Api, path: string, timeoutMs = 60_000) =>
  until(async () => {
    const body = (await (await api('GET', path)).json()) as { status?: string; failure_reason?: string };
    if (body.status === 'failed') throw new Error(`${path} failed: ${body.failure_reason}`);
    return body.status === 'completed';
  }, timeoutMs);

/**
 * Writes of both services in a loop until stopped (each of them emits an event, uploads store
 * blobs, listings and catalog entries queue a PDF); every answer must be 2xx, or 503 while busy.
 */
export function writeLoop(property: Api, agents: Api, propertyId: string, agentId: string) {
  let running = true;
  let writes = 0;
  const problems: string[] = [];
  const step = async (write: () => Promise<unknown>) => {
    try {
      await write();
      writes++;
    } catch (error) {
      const message = (error as Error).message;
      if (!/: 503 instead/.test(message)) problems.push(message);
    }
  };
  const done = (async () => {
    for (let n = 0; running; n++) {
      const created = await createProperty(property, `During the backup ${n}`).catch(() => undefined);
      await step(async () => {
        if (!created) throw new Error('the property was not created');
        await uploadPhoto(property, created.id);
      });
      await step(() => expectJson(property('PATCH', `/v1/properties/${propertyId}`, { title: `Renamed ${n}` }), 200));
      await step(() => createProspect(property, n));
      await step(() => reportUsage(agents, agentId, n));
      if (n % 3 === 0 && created) await step(() => generateListing(property, created.id));
      if (n % 3 === 1) await step(() => generateCatalogEntry(agents, agentId));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { writes, problems };
    },
  };
}
