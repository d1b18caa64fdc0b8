// Exposé generation: listings are generated through the property API (real HTTP) and rendered by
// the job worker in a process of its own. Reports exposés/s (a burst of --listings at once) and the
// time from POST to `completed` at a steady --rate, and the PDF size. The photos are real JPEGs
// (1600 × 1200, gradients and noise, --photo-quality), decoded at upload with their renditions made
// in the service's sandbox; the worker renders the exposé from the renditions in its own.
//   pnpm bench:listings [--listings 200] [--photos 5] [--photo-quality 80] [--rate 5] [--seconds 20] [--concurrency 4]
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { multipart } from '@platform/uploads/testing';
import { basesFor, photoLikeFamily } from './photos.js';
import { startPropertyStack } from './property-stack.js';
import { stopProcess } from './support.js';

const { values } = parseArgs({
  options: {
    listings: { type: 'string', default: '200' },
    photos: { type: 'string', default: '5' },
    'photo-quality': { type: 'string', default: '80' },
    rate: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '4' },
  },
});
const LISTINGS = Number(values.listings);
const PHOTOS = Number(values.photos);
const PHOTO_QUALITY = Number(values['photo-quality']);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const PROPERTIES = 40;

const stack = await startPropertyStack({
  name: 'listings',
  scopes: ['properties:read', 'properties:write', 'listings:read', 'listings:write'],
});
const { db, apiUrl, key } = stack;
const client = new Agent({ connections: 32 });
/** The worker process, once started (stopped on an error). */
const running: { worker?: ChildProcess } = {};
// On an error (an upload or a listing refused, ...): the worker and the stack are stopped and the temp dirs removed, exit code 1.
process.once('uncaughtException', (error) => {
  console.error(error);
  void (async () => {
    if (running.worker) await stopProcess(running.worker);
    await client.close().catch(() => {});
    await stack.close().catch((cleanup: unknown) => console.error('cleanup:', cleanup));
    process.exit(1);
  })();
});

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

// Properties with photos, uploaded through the API (the photos of a property at once): every upload
// must answer 201 with its two renditions.
const photos = await photoLikeFamily(1600, 1200, PHOTO_QUALITY, 28, basesFor(PROPERTIES * PHOTOS, 4));
const photoBytes: number[] = [];
const energy = {
  type: 'demand',
  final_energy_demand_kwh: 85.5,
  energy_source: 'Gas',
  efficiency_class: 'C',
  valid_until: '2031-01-01',
};
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
    commission: { buyer_percent: 3.57, seller_percent: 3.57, engaged_by: 'both' }, // shared equally (§656c BGB)
    energy_certificate: energy,
  });
  await Promise.all(
    Array.from({ length: PHOTOS }, async (_, p) => {
      const data = photos.next();
      photoBytes.push(data.length);
      const media = (await call(
        'POST',
        `/v1/properties/${id}/media`,
        multipart([
          { name: 'kind', value: 'photo' },
          { name: 'file', filename: `p${p}.jpg`, type: 'image/jpeg', data },
        ]),
      )) as { id: string; renditions?: unknown[] };
      if (media.renditions?.length !== 2)
        throw new Error(`photo ${p} of ${id}: ${media.renditions?.length ?? 0} renditions`);
    }),
  );
  properties.push(id);
}

/** What the worker tells of its sandbox's tasks (bench/listings-worker.ts). */
interface RenderStats {
  tasks: number;
  failed: number;
  ms: { p50: number; p95: number; max: number };
  peak_rss_mib: { p50: number; p95: number; max: number };
}

/** The worker process, once it is ready; `stats()`: its sandbox's tasks since the last call. */
async function startWorker(): Promise<{ child: ChildProcess; stats(): Promise<RenderStats> }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
      '--import',
      'tsx',
      new URL('./listings-worker.ts', import.meta.url).pathname,
    ],
    {
      env: {
        ...process.env,
        BENCH_DATABASE_URL: stack.databaseUrl,
        BENCH_REDIS_PORT: String(stack.redisPort),
        BENCH_BLOBS: stack.storageRoot,
        BENCH_CONCURRENCY: values.concurrency,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  running.worker = child;
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  await next(); // ready
  return {
    child,
    async stats() {
      const line = next();
      child.stdin!.write('stats\n');
      return JSON.parse(await line) as RenderStats;
    },
  };
}

const generate = (i: number) => call('POST', `/v1/properties/${properties[i % PROPERTIES]}/listings`);

/** Waits until every listing is out of `generating`; their rows. */
async function finished(ids: string[]) {
  for (;;) {
    const rows = await db.listing.findMany({
      where: { id: { in: ids } },
      select: { status: true, created_at: true, completed_at: true, size: true },
    });
    if (rows.every((r) => r.status !== 'generating')) {
      const failed = rows.filter((r) => r.status !== 'completed');
      if (failed.length > 0) throw new Error(`${failed.length} listings did not complete`);
      return rows;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const worker = await startWorker();
worker.child.stdin!.write('start\n');

// Warm-up (not counted): JIT and pools of both processes.
await finished(await Promise.all(Array.from({ length: 20 }, (_, i) => generate(i).then((l) => l.id))));
await worker.stats();

// 1. Throughput: a burst of LISTINGS at once; exposés/s = LISTINGS / (last completion − first request).
const burstStart = new Date();
const burst = await Promise.all(Array.from({ length: LISTINGS }, (_, i) => generate(i).then((l) => l.id)));
const burstRows = await finished(burst);
const lastDone = Math.max(...burstRows.map((r) => r.completed_at!.getTime()));
const throughput = LISTINGS / ((lastDone - burstStart.getTime()) / 1000);
const burstRenders = await worker.stats();

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
const steadyRenders = await worker.stats();

const result = {
  photos_per_exposé: PHOTOS,
  photo: {
    pixels: '1600 × 1200',
    quality: PHOTO_QUALITY,
    kib_median: Math.round(
      percentile(
        [...photoBytes].sort((a, b) => a - b),
        50,
      ) / 1024,
    ),
  },
  worker_concurrency: Number(values.concurrency),
  burst: {
    listings: LISTINGS,
    seconds: Number(((lastDone - burstStart.getTime()) / 1000).toFixed(2)),
    exposés_per_second: Number(throughput.toFixed(1)),
  },
  steady: {
    rate_per_second: RATE,
    listings: steadyCount,
    p50_ms: percentile(latencies, 50),
    p95_ms: percentile(latencies, 95),
    max_ms: latencies.at(-1),
  },
  pdf_kib: { median: Math.round(percentile(sizes, 50) / 1024) },
  /** Rendering in the worker's sandbox (one task per exposé): its duration and its child's peak RSS. */
  render_in_sandbox: { burst: burstRenders, steady: steadyRenders },
};
console.log(JSON.stringify(result, null, 2));
console.log(
  `\nGoals: ≥ 10 exposés/s: ${throughput >= 10 ? 'met' : 'NOT met'}; p95 < 2 s at ${RATE}/s: ${percentile(latencies, 95) < 2000 ? 'met' : 'NOT met'}`,
);

await stopProcess(worker.child);
await client.close();
await stack.close();
process.exit(0);
