// Upload and download throughput of property media on the filesystem driver, and the service's RSS.
// The service runs in a process of its own (bench/uploads-service.ts) on loopback; this process is
// the load generator (undici, PARALLEL connections). Per round: PHOTOS distinct JPEGs of SIZE MiB are
// uploaded (POST /v1/properties/{id}/media), then downloaded through the API (GET .../content) and
// from a bare `node:http` server streaming the same blob files with `fs.createReadStream` (the
// baseline, in the service's process), each twice, alternating in blocks of 50 files (A B B A). Exit code 1 only on errors.
//   pnpm bench:uploads [--photos 200] [--size 2] [--parallel 8] [--rounds 5] [--warmup 16] [--warmup-requests 400]
//   BENCH_DATABASE_URL=postgres://… (a migrated database) instead of a private embedded PostgreSQL;
//   BENCH_PROFILE=1 writes a CPU profile of the service process to /tmp/prof.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { createApiKey } from '@platform/auth';
import { createPrisma, runMigrations, startEmbeddedPostgres, type PrismaClient } from '@platform/db';
import { propertyDescriptor } from '@platform/property-service';
import { jpeg, multipart } from '../packages/uploads/test/fixtures.js';

const { values } = parseArgs({
  options: {
    photos: { type: 'string', default: '200' },
    size: { type: 'string', default: '2' },
    parallel: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '16' },
    'warmup-requests': { type: 'string', default: '400' },
  },
});
const MiB = 1024 * 1024;
const PHOTOS = Number(values.photos);
const SIZE = Math.round(Number(values.size) * MiB);
const PARALLEL = Number(values.parallel);
const ROUNDS = Number(values.rounds);
/** Uploads before the rounds; RSS growth is measured from after them, so they stay few. */
const WARMUP = Number(values.warmup);
/** Downloads (each side) and 304 answers before the rounds, over the warm-up's files: until the JIT has settled. */
const WARMUP_REQUESTS = Number(values['warmup-requests']);
/** Files per alternation of the two download sides. */
const BLOCK = 50;

/** A JPEG of exactly `size` bytes: the fixture's header (SOI, JFIF, a unique comment, SOF0 with the size), a scan header, random entropy-coded data (no 0xFF, so no markers), EOI. */
function photo(size: number): Buffer {
  const head = jpeg(1600, 1200).subarray(0, -2); // without EOI
  const sos = Buffer.from([0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0]);
  const data = randomBytes(size - head.length - sos.length - 2);
  for (let i = 0; i < data.length; i++) if (data[i] === 0xff) data[i] = 0xfe;
  return Buffer.concat([head, sos, data, Buffer.from([0xff, 0xd9])]);
}

const cleanups: (() => unknown)[] = [];
async function cleanUp() {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      await step();
    } catch (error) {
      console.error('cleanup:', error);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(1)));
}

/** The service process: its URLs, and `command` (mark / peak) answered with its RSS. */
async function startService(databaseUrl: string, dataDir: string, pepper: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), '--import', 'tsx', new URL('./uploads-service.ts', import.meta.url).pathname],
    { env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_DATA_DIR: dataDir, BENCH_PEPPER: pepper }, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  });
  const waiting: ((line: string) => void)[] = [];
  const failed = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`The service process exited (${code}).`))));
  failed.catch(() => {});
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.(line));
  const next = () => Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), failed]);
  const ready = JSON.parse(await next()) as { api: string; bare: string };
  return {
    ...ready,
    async command(name: 'mark' | 'peak') {
      const answer = next();
      child.stdin!.write(`${name}\n`);
      return JSON.parse(await answer) as { rss: number; peak?: number };
    },
  };
}

/** `count` jobs, `parallel` at a time; the elapsed seconds. */
async function pool(count: number, parallel: number, job: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < count) await job(next++);
  }));
  return (performance.now() - start) / 1000;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-uploads-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

  let databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) {
    const pgDir = mkdtempSync(join(tmpdir(), 'bench-uploads-pg-')); // its own: as root, PostgreSQL runs as another user
    cleanups.push(() => rmSync(pgDir, { recursive: true, force: true }));
    const pg = await startEmbeddedPostgres({ dataDir: pgDir, port: 25_000 + Math.floor(Math.random() * 5_000), persistent: false });
    cleanups.push(() => pg.stop());
    await runMigrations(pg.adminUrl);
    databaseUrl = pg.adminUrl;
  }
  const db: PrismaClient = createPrisma({ url: databaseUrl });
  cleanups.push(() => db.$disconnect());
  const suffix = randomBytes(4).toString('hex');
  const pepper = randomBytes(32).toString('hex');
  await db.account.create({ data: { id: `acct_bench_${suffix}`, name: 'bench uploads' } });
  await db.application.create({ data: { id: `app_bench_${suffix}`, account_id: `acct_bench_${suffix}`, service: 'property', name: 'bench uploads' } });
  const { plaintext: key } = await createApiKey(db, { applicationId: `app_bench_${suffix}`, service: propertyDescriptor, environment: 'sandbox', scopes: ['properties:read', 'properties:write'], pepper });

  const service = await startService(databaseUrl, join(dataDir, 'service'), pepper);
  const client = new Agent({ connections: PARALLEL });
  cleanups.push(() => client.close());

  async function newProperty(): Promise<string> {
    const { statusCode, body } = await request(`${service.api}/v1/properties`, {
      method: 'POST',
      dispatcher: client,
      headers: { apikey: key, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'apartment', title: 'Benchmark flat', address: { postal_code: '10115', city: 'Berlin' } }),
    });
    const text = await body.text();
    if (statusCode !== 201) throw new Error(`POST /v1/properties: ${statusCode} ${text}`);
    return (JSON.parse(text) as { id: string }).id;
  }

  /** Uploads `count` fresh photos, PARALLEL at a time: the media (id, sha256) and the elapsed seconds. */
  async function uploadAll(propertyId: string, count: number) {
    const payloads = Array.from({ length: count }, (_, i) => multipart([{ name: 'kind', value: 'photo' }, { name: 'file', filename: `photo-${i}.jpg`, type: 'image/jpeg', data: photo(SIZE) }]));
    const media: { id: string; sha256: string }[] = [];
    const seconds = await pool(count, PARALLEL, async (i) => {
      const { payload, contentType } = payloads[i];
      const { statusCode, body } = await request(`${service.api}/v1/properties/${propertyId}/media`, {
        method: 'POST',
        dispatcher: client,
        headers: { apikey: key, 'content-type': contentType },
        body: payload,
      });
      const text = await body.text();
      if (statusCode !== 201) throw new Error(`upload ${i}: ${statusCode} ${text}`);
      const m = JSON.parse(text) as { id: string; sha256: string; size: number; content_type: string; width: number | null };
      if (m.size !== SIZE || m.content_type !== 'image/jpeg' || m.width !== 1600) throw new Error(`upload ${i}: unexpected record ${text}`);
      media[i] = m;
    });
    return { media, seconds };
  }

  /** GETs each URL once, PARALLEL at a time, reading (and counting, not keeping) the bodies: the elapsed seconds. */
  async function downloadAll(urls: string[], headers: Record<string, string>) {
    return pool(urls.length, PARALLEL, async (i) => {
      const { statusCode, body } = await request(urls[i], { dispatcher: client, headers });
      let bytes = 0;
      for await (const chunk of body) bytes += (chunk as Buffer).length;
      if (statusCode !== 200 || bytes !== SIZE) throw new Error(`GET ${urls[i]}: ${statusCode}, ${bytes} bytes`);
    });
  }

  /** GETs each content URL with `If-None-Match` of its ETag (304: auth, the record's query and routing, no file), PARALLEL at a time: the elapsed seconds. */
  async function notModifiedAll(propertyId: string, media: { id: string; sha256: string }[]) {
    const urls = serviceUrls(propertyId, media);
    return pool(urls.length, PARALLEL, async (i) => {
      const { statusCode, body } = await request(urls[i], { dispatcher: client, headers: { apikey: key, 'if-none-match': `"${media[i].sha256}"` } });
      await body.dump();
      if (statusCode !== 304) throw new Error(`GET ${urls[i]} with If-None-Match: ${statusCode}`);
    });
  }

  const serviceUrls = (propertyId: string, media: { id: string }[]) => media.map((m) => `${service.api}/v1/properties/${propertyId}/media/${m.id}/content`);
  const bareUrls = (media: { sha256: string }[]) => media.map((m) => `${service.bare}/blob/${m.sha256}`);

  // Warm-up (not counted): JIT, pools, connections.
  const warmProperty = await newProperty();
  const warm = await uploadAll(warmProperty, WARMUP);
  const again = Array.from({ length: WARMUP_REQUESTS }, (_, i) => warm.media[i % warm.media.length]);
  await downloadAll(serviceUrls(warmProperty, again), { apikey: key });
  await downloadAll(bareUrls(again), {});
  await notModifiedAll(warmProperty, again);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const baseline = (await service.command('mark')).rss;

  const rows: { upload: number; download: number; bare: number; ratio: number; uploadPeak: number; uploadGrowth: number; downloadPeak: number; notModified: number; apiMs: number; bareMs: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const propertyId = await newProperty();
    await service.command('mark');
    const up = await uploadAll(propertyId, PHOTOS);
    const uploadPeak = (await service.command('peak')).peak!;
    await service.command('mark');
    let download = 0;
    let bare = 0;
    // Each side downloads all PHOTOS twice, a block of BLOCK files at a time in the order A B B A (A = the
    // API in every other block, the bare server in the others): the two sides alternate every few
    // hundred milliseconds, so that a slow second of the shared machine falls on both alike.
    for (let from = 0, block = 0; from < PHOTOS; from += BLOCK, block++) {
      const files = up.media.slice(from, from + BLOCK);
      const order = (round + block) % 2 === 0 ? ['service', 'bare', 'bare', 'service'] : ['bare', 'service', 'service', 'bare'];
      for (const which of order) {
        if (which === 'service') download += await downloadAll(serviceUrls(propertyId, files), { apikey: key });
        else bare += await downloadAll(bareUrls(files), {});
      }
    }
    const downloadPeak = (await service.command('peak')).peak!;
    // What a request costs the API without the file: the difference between the API and the bare server.
    const notModified = await notModifiedAll(propertyId, up.media);
    const mibps = (seconds: number, passes = 1) => (passes * PHOTOS * SIZE) / MiB / seconds;
    const row = {
      upload: mibps(up.seconds),
      download: mibps(download, 2),
      bare: mibps(bare, 2),
      ratio: (100 * bare) / download, // = API MiB/s / bare MiB/s
      uploadPeak: uploadPeak / MiB,
      uploadGrowth: (uploadPeak - baseline) / MiB,
      downloadPeak: downloadPeak / MiB,
      notModified: PHOTOS / notModified,
      apiMs: (download * 1000 * PARALLEL) / (2 * PHOTOS),
      bareMs: (bare * 1000 * PARALLEL) / (2 * PHOTOS),
    };
    rows.push(row);
    console.error(`round ${round + 1}: ${JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v.toFixed(1))])))}`);
  }

  const lines: [string, keyof (typeof rows)[number], string][] = [
    ['upload (MiB/s)', 'upload', 'MiB/s'],
    ['download via API (MiB/s)', 'download', 'MiB/s'],
    ['download, bare node:http + createReadStream (MiB/s)', 'bare', 'MiB/s'],
    ['API download / bare (%)', 'ratio', '%'],
    ['service peak RSS during uploads (MiB)', 'uploadPeak', 'MiB'],
    ['RSS growth during uploads (MiB)', 'uploadGrowth', 'MiB'],
    ['service peak RSS during downloads (MiB)', 'downloadPeak', 'MiB'],
    ['download time per file via API, 8 in flight (ms)', 'apiMs', 'ms'],
    ['download time per file, bare (ms)', 'bareMs', 'ms'],
    ['API requests answered 304 (If-None-Match), no file (req/s)', 'notModified', 'req/s'],
  ];
  const f = (x: number) => x.toFixed(1);
  console.log(`\n${PHOTOS} photos of ${f(SIZE / MiB)} MiB, ${PARALLEL} in parallel, ${ROUNDS} rounds; service RSS after warm-up ${f(baseline / MiB)} MiB\n`);
  console.log(`| | ${rows.map((_, i) => `round ${i + 1}`).join(' | ')} | min | median | max |`);
  console.log(`|---|${rows.map(() => '---|').join('')}---|---|---|`);
  for (const [label, k] of lines) {
    const xs = rows.map((r) => r[k]);
    console.log(`| ${label} | ${xs.map(f).join(' | ')} | ${f(Math.min(...xs))} | ${f(median(xs))} | ${f(Math.max(...xs))} |`);
  }
  const med = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]));
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`\nGoals (medians): upload ≥ 50 MiB/s: ${verdict(med('upload') >= 50)}; RSS growth < 100 MiB (max over rounds): ${verdict(Math.max(...rows.map((r) => r.uploadGrowth)) < 100)}; download ≥ 80 % of bare: ${verdict(med('ratio') >= 80)}`);
}

let failed = false;
try {
  await main();
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await cleanUp();
}
process.exit(failed ? 1 : 0);
