// Exposé generation: listings are generated through the property API (real HTTP) and rendered by
// the job worker in a process of its own. Reports exposés/s (a burst of --listings at once) and the
// time from POST to `completed` at a steady --rate, the PDF size, and what one exposé costs.
//   pnpm bench:listings [--listings 200] [--photos 5] [--photo-kib 250] [--rate 5] [--seconds 20] [--concurrency 4]
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { multipart } from '@platform/uploads/testing';
import { startPropertyStack } from './property-stack.js';

const { values } = parseArgs({
  options: {
    listings: { type: 'string', default: '200' },
    photos: { type: 'string', default: '5' },
    'photo-kib': { type: 'string', default: '250' },
    rate: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '4' },
  },
});
const LISTINGS = Number(values.listings);
const PHOTOS = Number(values.photos);
const PHOTO_BYTES = Number(values['photo-kib']) * 1024;
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const PROPERTIES = 40;

const stack = await startPropertyStack({ name: 'listings', scopes: ['properties:read', 'properties:write', 'listings:read', 'listings:write'] });
const { db, apiUrl, key } = stack;
const client = new Agent({ connections: 32 });

async function call(method: 'POST' | 'GET', path: string, body?: object | { payload: Buffer; contentType: string }) {
  const upload = body && 'payload' in body;
  const r = await request(`${apiUrl}${path}`, {
    method,
    dispatcher: client,
    headers: { apikey: key, 'content-type': upload ? body.contentType : 'application/json' },
    body: upload ? body.payload : body ? JSON.stringify(body) : undefined,
  });
  const text = await r.body.text();
  if (r.statusCode >= 300) throw new Error(`${method} ${path}: ${r.statusCode} ${text}`);
  return JSON.parse(text) as { id: string };
}

/** A baseline JPEG of about `size` bytes: the header of a 1600×1200 image and random scan data (pdfkit copies JPEGs, it does not decode them). */
function photo(size: number): Buffer {
  const head = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, 0xc0, 0, 17, 8, 1600 >> 8, 1600 & 255, 1200 >> 8, 1200 & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  const sos = Buffer.from([0xff, 0xda, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0]);
  const scan = randomBytes(size);
  for (let i = 0; i < scan.length; i++) if (scan[i] === 0xff) scan[i] = 0xfe;
  return Buffer.concat([head, sof, sos, scan, Buffer.from([0xff, 0xd9])]);
}

// Properties with photos, uploaded through the API.
const energy = { type: 'demand', final_energy_demand_kwh: 85.5, energy_source: 'Gas', efficiency_class: 'C', valid_until: '2031-01-01' };
const properties: string[] = [];
for (let i = 0; i < PROPERTIES; i++) {
  const { id } = await call('POST', '/v1/properties', {
    type: 'apartment',
    title: `Helle Wohnung Nr. ${i} am Südpark`,
    description: 'Ruhige Lage, großer Balkon, Einbauküche. '.repeat(20),
    address: { street: `Parkstraße ${i + 1}`, postal_code: '10115', city: 'Berlin', location_precision: 'street' },
    living_area_sqm: 64.5,
    rooms: 2.5,
    year_built: 1998,
    floor: 3,
    purchase_price_eur: 420000 + i,
    commission: { buyer_percent: 3.57 },
    energy_certificate: energy,
  });
  for (let p = 0; p < PHOTOS; p++) {
    await call('POST', `/v1/properties/${id}/media`, multipart([{ name: 'kind', value: 'photo' }, { name: 'file', filename: `p${p}.jpg`, type: 'image/jpeg', data: photo(PHOTO_BYTES) }]));
  }
  properties.push(id);
}

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), '--import', 'tsx', new URL('./listings-worker.ts', import.meta.url).pathname], {
    env: { ...process.env, BENCH_DATABASE_URL: stack.databaseUrl, BENCH_REDIS_PORT: String(stack.redisPort), BENCH_BLOBS: stack.storageRoot, BENCH_CONCURRENCY: values.concurrency },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve) => createInterface({ input: child.stdout! }).once('line', () => resolve(child)));
}

const generate = (i: number) => call('POST', `/v1/properties/${properties[i % PROPERTIES]}/listings`);

/** Waits until every listing is out of `generating`; their rows. */
async function finished(ids: string[]) {
  for (;;) {
    const rows = await db.listing.findMany({ where: { id: { in: ids } }, select: { status: true, created_at: true, completed_at: true, size: true } });
    if (rows.every((r) => r.status !== 'generating')) {
      const failed = rows.filter((r) => r.status !== 'completed');
      if (failed.length > 0) throw new Error(`${failed.length} listings did not complete`);
      return rows;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const worker = await startWorker();
worker.stdin!.write('start\n');

// Warm-up (not counted): JIT and pools of both processes.
await finished(await Promise.all(Array.from({ length: 20 }, (_, i) => generate(i).then((l) => l.id))));

// 1. Throughput: a burst of LISTINGS at once; exposés/s = LISTINGS / (last completion − first request).
const burstStart = new Date();
const burst = await Promise.all(Array.from({ length: LISTINGS }, (_, i) => generate(i).then((l) => l.id)));
const burstRows = await finished(burst);
const lastDone = Math.max(...burstRows.map((r) => r.completed_at!.getTime()));
const throughput = LISTINGS / ((lastDone - burstStart.getTime()) / 1000);

// 2. Latency at a steady RATE: POST → completed (the row's created_at to completed_at, both the server's clock).
const steady: string[] = [];
const steadyCount = RATE * SECONDS;
const steadyStart = Date.now();
for (let i = 0; i < steadyCount; i++) {
  const due = steadyStart + (i * 1000) / RATE;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
  steady.push((await generate(i)).id);
}
const steadyRows = await finished(steady);
const latencies = steadyRows.map((r) => r.completed_at!.getTime() - r.created_at.getTime()).sort((a, b) => a - b);
const sizes = steadyRows.map((r) => r.size!).sort((a, b) => a - b);

const result = {
  photos_per_exposé: PHOTOS,
  photo_kib: PHOTO_BYTES / 1024,
  worker_concurrency: Number(values.concurrency),
  burst: { listings: LISTINGS, seconds: Number(((lastDone - burstStart.getTime()) / 1000).toFixed(2)), exposés_per_second: Number(throughput.toFixed(1)) },
  steady: { rate_per_second: RATE, listings: steadyCount, p50_ms: percentile(latencies, 50), p95_ms: percentile(latencies, 95), max_ms: latencies.at(-1) },
  pdf_kib: { median: Math.round(percentile(sizes, 50) / 1024) },
};
console.log(JSON.stringify(result, null, 2));
console.log(`\nGoals: ≥ 10 exposés/s: ${throughput >= 10 ? 'met' : 'NOT met'}; p95 < 2 s at ${RATE}/s: ${percentile(latencies, 95) < 2000 ? 'met' : 'NOT met'}`);

worker.kill('SIGTERM');
await new Promise((resolve) => worker.once('exit', resolve));
await client.close();
await stack.close();
process.exit(0);
