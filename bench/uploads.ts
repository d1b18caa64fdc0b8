// Upload and download throughput of property media on the filesystem driver, and the service's RSS.
// The service runs in a process of its own (bench/uploads-service.ts) on loopback; this process is
// the load generator (undici, PARALLEL connections). Per round: PHOTOS distinct JPEGs of about SIZE
// MiB (random pixels, so real JPEGs that the service decodes in full and makes its two renditions
// of, in its sandbox) are uploaded (POST /v1/properties/{id}/media), then downloaded through the API
// (GET .../content) and from a bare `node:http` server streaming the same blob files with
// `fs.createReadStream` (the baseline, in the service's process), each twice, alternating in blocks
// of 50 files (A B B A). Exit code 1 only on errors.
//   pnpm bench:uploads [--photos 200] [--size 2] [--quality 95] [--parallel 8] [--rounds 5] [--warmup 16] [--warmup-requests 400]
//   BENCH_DATABASE_URL=postgres://… (a migrated database) instead of a private embedded PostgreSQL;
//   BENCH_PROFILE=1 writes a CPU profile of the service process to /tmp/prof.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { createApiKey } from '@platform/auth';
import { propertyDescriptor } from '@platform/property-service';
import { multipart } from '@platform/uploads/testing';
import { basesFor, noiseFamilyOfSize } from './photos.js';
import { median, pool, startUploadsService } from './uploads-process.js';
import { benchDatabase, cleanups, runBenchmark, temporaryDir } from './cleanups.js';

const { values } = parseArgs({
  options: {
    photos: { type: 'string', default: '200' },
    size: { type: 'string', default: '2' },
    quality: { type: 'string', default: '95' },
    parallel: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '16' },
    'warmup-requests': { type: 'string', default: '400' },
  },
});
const MiB = 1024 * 1024;
const PHOTOS = Number(values.photos);
/** About this many bytes per photo (the pixels are chosen for it; each photo's own size is what is counted). */
const SIZE = Math.round(Number(values.size) * MiB);
const QUALITY = Number(values.quality);
const PARALLEL = Number(values.parallel);
const ROUNDS = Number(values.rounds);
/** Uploads before the rounds; RSS growth is measured from after them, so they stay few. */
const WARMUP = Number(values.warmup);
/** Downloads (each side) and 304 answers before the rounds, over the warm-up's files: until the JIT has settled. */
const WARMUP_REQUESTS = Number(values['warmup-requests']);
/** Files per alternation of the two download sides. */
const BLOCK = 50;
/** Media a property may have (MEDIA_MAX_PER_PROPERTY): a round's photos go to as many new properties as they need. */
const PER_PROPERTY = 100;

async function main() {
  const dataDir = temporaryDir('bench-uploads-');

  const { databaseUrl, db } = await benchDatabase('bench-uploads');
  const suffix = randomBytes(4).toString('hex');
  const pepper = randomBytes(32).toString('hex');
  await db.account.create({ data: { id: `acct_bench_${suffix}`, name: 'bench uploads' } });
  await db.application.create({
    data: { id: `app_bench_${suffix}`, account_id: `acct_bench_${suffix}`, service: 'property', name: 'bench uploads' },
  });
  const { plaintext: key } = await createApiKey(db, {
    applicationId: `app_bench_${suffix}`,
    service: propertyDescriptor,
    environment: 'sandbox',
    scopes: ['properties:read', 'properties:write'],
    pepper,
  });

  // The photos: a few noise JPEGs of about SIZE (4:3), each upload a variant of one (its own bytes and pixels).
  const total = WARMUP + ROUNDS * PHOTOS;
  const { family, width: WIDTH, height: HEIGHT } = await noiseFamilyOfSize(SIZE, QUALITY, basesFor(total, 4));
  const meanBase = family.bases.reduce((sum, b) => sum + b.length, 0) / family.bases.length;

  const service = await startUploadsService({
    databaseUrl,
    dataDir: join(dataDir, 'service'),
    pepper,
    profile: Boolean(process.env.BENCH_PROFILE),
    cleanups,
  });
  const client = new Agent({ connections: PARALLEL });
  cleanups.push(() => client.close());

  async function newProperty(): Promise<string> {
    const { statusCode, body } = await request(`${service.api}/v1/properties`, {
      method: 'POST',
      dispatcher: client,
      headers: { apikey: key, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'apartment',
        title: 'Benchmark flat',
        address: { postal_code: '10115', city: 'Berlin' },
      }),
    });
    const text = await body.text();
    if (statusCode !== 201) throw new Error(`POST /v1/properties: ${statusCode} ${text}`);
    return (JSON.parse(text) as { id: string }).id;
  }

  interface Uploaded {
    id: string;
    property_id: string;
    sha256: string;
    size: number;
    renditions: { variant: string; sha256: string; width: number; height: number }[];
  }

  /** Uploads `count` fresh photos to new properties (at most PER_PROPERTY each), PARALLEL at a time: the media, their bytes and the elapsed seconds. */
  async function uploadAll(count: number) {
    const properties: string[] = [];
    for (let i = 0; i < count; i += PER_PROPERTY) properties.push(await newProperty());
    const photos = Array.from({ length: count }, () => family.next());
    const payloads = photos.map((data, i) =>
      multipart([
        { name: 'kind', value: 'photo' },
        { name: 'file', filename: `photo-${i}.jpg`, type: 'image/jpeg', data },
      ]),
    );
    const media: Uploaded[] = [];
    const seconds = await pool(count, PARALLEL, async (i) => {
      const { payload, contentType } = payloads[i];
      const { statusCode, body } = await request(
        `${service.api}/v1/properties/${properties[Math.floor(i / PER_PROPERTY)]}/media`,
        {
          method: 'POST',
          dispatcher: client,
          headers: { apikey: key, 'content-type': contentType },
          body: payload,
        },
      );
      const text = await body.text();
      if (statusCode !== 201) throw new Error(`upload ${i}: ${statusCode} ${text}`);
      const m = JSON.parse(text) as Uploaded & { content_type: string; width: number | null };
      const variants = m.renditions
        .map((r) => r.variant)
        .sort()
        .join(',');
      if (
        m.size !== photos[i].length ||
        m.content_type !== 'image/jpeg' ||
        m.width !== WIDTH ||
        m.renditions.length !== 2 ||
        variants !== 'large,thumbnail'
      ) {
        throw new Error(`upload ${i}: unexpected record ${text}`);
      }
      media[i] = m;
    });
    const bytes = photos.reduce((sum, p) => sum + p.length, 0);
    return { media, bytes, seconds };
  }

  /** GETs each URL once, PARALLEL at a time, reading (and counting, not keeping) the bodies, each of `sizes[i]` bytes: the elapsed seconds. */
  async function downloadAll(urls: string[], sizes: number[], headers: Record<string, string>) {
    return pool(urls.length, PARALLEL, async (i) => {
      const { statusCode, body } = await request(urls[i], { dispatcher: client, headers });
      let bytes = 0;
      for await (const chunk of body) bytes += (chunk as Buffer).length;
      if (statusCode !== 200 || bytes !== sizes[i]) throw new Error(`GET ${urls[i]}: ${statusCode}, ${bytes} bytes`);
    });
  }

  /** GETs each content URL with `If-None-Match` of its ETag (304: auth, the record's query and routing, no file), PARALLEL at a time: the elapsed seconds. */
  async function notModifiedAll(media: Uploaded[]) {
    const urls = serviceUrls(media);
    return pool(urls.length, PARALLEL, async (i) => {
      const { statusCode, body } = await request(urls[i], {
        dispatcher: client,
        headers: { apikey: key, 'if-none-match': `"${media[i].sha256}"` },
      });
      await body.dump();
      if (statusCode !== 304) throw new Error(`GET ${urls[i]} with If-None-Match: ${statusCode}`);
    });
  }

  const serviceUrls = (media: Uploaded[]) =>
    media.map((m) => `${service.api}/v1/properties/${m.property_id}/media/${m.id}/content`);
  const bareUrls = (media: { sha256: string }[]) => media.map((m) => `${service.bare}/blob/${m.sha256}`);
  const sizesOf = (media: { size: number }[]) => media.map((m) => m.size);

  // Warm-up (not counted): JIT, pools, connections, the sandbox's children.
  const warm = await uploadAll(WARMUP);
  const again = Array.from({ length: WARMUP_REQUESTS }, (_, i) => warm.media[i % warm.media.length]);
  await downloadAll(serviceUrls(again), sizesOf(again), { apikey: key });
  await downloadAll(bareUrls(again), sizesOf(again), {});
  await notModifiedAll(again);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const baseline = (await service.command('mark')).rss;

  const renditionHashes = new Set<string>();
  let renditionCount = 0;
  const rows: {
    upload: number;
    filesPerSecond: number;
    download: number;
    bare: number;
    ratio: number;
    uploadPeak: number;
    uploadGrowth: number;
    childPeak: number;
    childrenPeak: number;
    decodeMs: number;
    downloadPeak: number;
    notModified: number;
    apiMs: number;
    bareMs: number;
  }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await service.command('mark');
    const up = await uploadAll(PHOTOS);
    const uploadPeak = await service.command('peak');
    if (uploadPeak.sandbox.tasks.failed > 0) throw new Error(`${uploadPeak.sandbox.tasks.failed} sandbox tasks failed`);
    for (const m of up.media) for (const r of m.renditions) renditionHashes.add(r.sha256);
    renditionCount += 2 * up.media.length;
    await service.command('mark');
    let download = 0;
    let bare = 0;
    // Each side downloads all PHOTOS twice, a block of BLOCK files at a time in the order A B B A (A = the
    // API in every other block, the bare server in the others): the two sides alternate every few
    // hundred milliseconds, so that a slow second of the shared machine falls on both alike.
    for (let from = 0, block = 0; from < PHOTOS; from += BLOCK, block++) {
      const files = up.media.slice(from, from + BLOCK);
      const order =
        (round + block) % 2 === 0 ? ['service', 'bare', 'bare', 'service'] : ['bare', 'service', 'service', 'bare'];
      for (const which of order) {
        if (which === 'service') download += await downloadAll(serviceUrls(files), sizesOf(files), { apikey: key });
        else bare += await downloadAll(bareUrls(files), sizesOf(files), {});
      }
    }
    const downloadPeak = (await service.command('peak')).peak;
    // What a request costs the API without the file: the difference between the API and the bare server.
    const notModified = await notModifiedAll(up.media);
    const mibps = (seconds: number, passes = 1) => (passes * up.bytes) / MiB / seconds;
    const row = {
      upload: mibps(up.seconds),
      filesPerSecond: PHOTOS / up.seconds,
      download: mibps(download, 2),
      bare: mibps(bare, 2),
      ratio: (100 * bare) / download, // = API MiB/s / bare MiB/s
      uploadPeak: uploadPeak.peak / MiB,
      uploadGrowth: (uploadPeak.peak - baseline) / MiB,
      childPeak: uploadPeak.sandbox.tasks.peakRssMax / MiB,
      childrenPeak: uploadPeak.sandbox.peakTotal / MiB,
      decodeMs: uploadPeak.sandbox.tasks.msMedian,
      downloadPeak: downloadPeak / MiB,
      notModified: PHOTOS / notModified,
      apiMs: (download * 1000 * PARALLEL) / (2 * PHOTOS),
      bareMs: (bare * 1000 * PARALLEL) / (2 * PHOTOS),
    };
    rows.push(row);
    console.error(
      `round ${round + 1}: ${JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v.toFixed(1))])))}`,
    );
  }

  const lines: [string, keyof (typeof rows)[number], string][] = [
    ['upload (MiB/s)', 'upload', 'MiB/s'],
    ['uploads (files/s)', 'filesPerSecond', 'files/s'],
    ['download via API (MiB/s)', 'download', 'MiB/s'],
    ['download, bare node:http + createReadStream (MiB/s)', 'bare', 'MiB/s'],
    ['API download / bare (%)', 'ratio', '%'],
    ['service peak RSS during uploads (MiB)', 'uploadPeak', 'MiB'],
    ['RSS growth during uploads (MiB)', 'uploadGrowth', 'MiB'],
    ['sandbox child peak RSS, largest task (MiB)', 'childPeak', 'MiB'],
    ['sandbox children together, peak RSS (MiB)', 'childrenPeak', 'MiB'],
    ['decoding + renditions in the sandbox, median per file (ms)', 'decodeMs', 'ms'],
    ['service peak RSS during downloads (MiB)', 'downloadPeak', 'MiB'],
    [`download time per file via API, ${PARALLEL} in flight (ms)`, 'apiMs', 'ms'],
    ['download time per file, bare (ms)', 'bareMs', 'ms'],
    ['API requests answered 304 (If-None-Match), no file (req/s)', 'notModified', 'req/s'],
  ];
  const f = (x: number) => x.toFixed(1);
  console.log(
    `\n${PHOTOS} photos of ${WIDTH} × ${HEIGHT} random pixels, JPEG q${QUALITY}, ${f(meanBase / MiB)} MiB on average, ${PARALLEL} in parallel, ${ROUNDS} rounds; ` +
      `service RSS after warm-up ${f(baseline / MiB)} MiB; renditions: ${renditionHashes.size} distinct of ${renditionCount}\n`,
  );
  console.log(`| | ${rows.map((_, i) => `round ${i + 1}`).join(' | ')} | min | median | max |`);
  console.log(`|---|${rows.map(() => '---|').join('')}---|---|---|`);
  for (const [label, k] of lines) {
    const xs = rows.map((r) => r[k]);
    console.log(
      `| ${label} | ${xs.map(f).join(' | ')} | ${f(Math.min(...xs))} | ${f(median(xs))} | ${f(Math.max(...xs))} |`,
    );
  }
  const med = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]));
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(
    `\nGoals (medians): upload ≥ 50 MiB/s: ${verdict(med('upload') >= 50)}; RSS growth < 100 MiB (max over rounds): ${verdict(Math.max(...rows.map((r) => r.uploadGrowth)) < 100)}; download ≥ 80 % of bare: ${verdict(med('ratio') >= 80)}`,
  );
}

await runBenchmark(main);
