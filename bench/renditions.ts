// What decoding a photo and making its renditions at upload costs: 12-megapixel JPEGs uploaded over
// real HTTP to the property service in a process of its own (bench/uploads-service.ts: the app with
// the default sandbox, filesystem storage, the embedded PostgreSQL with fsync on), sequentially and
// with more in parallel; meanwhile the service's RSS, its sandbox children's resident memory, and the
// latency of another tenant's requests (GET /v1/properties/{id} of a second account, one at a time in
// a loop), compared with the same loop while nothing is uploaded. Exit code 1 only on errors.
//   pnpm bench:renditions [--files 16] [--parallel 1,2,4] [--warmup 4] [--idle-seconds 5] [--quality 90] [--noise 28]
//   BENCH_DATABASE_URL=postgres://… (a migrated database) instead of a private embedded PostgreSQL.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { createApiKey } from '@platform/auth';
import { DEFAULT_SANDBOX } from '@platform/runtime';
import { propertyDescriptor } from '@platform/property-service';
import { multipart } from '@platform/uploads/testing';
import { basesFor, photoLikeFamily } from './photos.js';
import { median, pool, startUploadsService, type SandboxMemory } from './uploads-process.js';
import { benchDatabase, cleanups, runBenchmark, temporaryDir } from './cleanups.js';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '16' },
    parallel: { type: 'string', default: '1,2,4' },
    warmup: { type: 'string', default: '4' },
    'idle-seconds': { type: 'string', default: '5' },
    quality: { type: 'string', default: '90' },
    noise: { type: 'string', default: '28' },
  },
});
const MiB = 1024 * 1024;
const WIDTH = 4000;
const HEIGHT = 3000;
/** Uploads per level of parallelism. */
const FILES = Number(values.files);
const LEVELS = values.parallel.split(',').map(Number);
const WARMUP = Number(values.warmup);
const IDLE_SECONDS = Number(values['idle-seconds']);
const QUALITY = Number(values.quality);
const NOISE = Number(values.noise);
/** Media a property may have (MEDIA_MAX_PER_PROPERTY): a level of more files spreads them over several properties. */
const PER_PROPERTY = 100;
if (!(FILES > 0) || LEVELS.some((p) => !(p > 0)) || !(WARMUP >= 1) || !(IDLE_SECONDS > 0)) {
  console.error('--files, --parallel (a list), --warmup and --idle-seconds must be positive numbers.');
  process.exit(1);
}

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
/** p50, p99 and max (ms) of latencies, and how many. */
function latencyOf(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: at(sorted, 0.5), p99: at(sorted, 0.99), max: sorted[sorted.length - 1] };
}

interface Level {
  parallel: number;
  seconds: number;
  bytes: number;
  /** Each upload's request time (ms). */
  requestMs: number[];
  /** The service's RSS: its peak during the level, and that peak minus the RSS after the warm-up. */
  peakRss: number;
  growth: number;
  sandbox: SandboxMemory;
  /** The service's event loop: gaps between its 10 ms timer ticks (ms). */
  loopDelay: { p99: number; max: number };
  /** The same of this process (the load generator): the longest gap. */
  generatorLoopMax: number;
  other: ReturnType<typeof latencyOf>;
}

async function main() {
  const dataDir = temporaryDir('bench-renditions-');

  const { databaseUrl, db } = await benchDatabase('bench-renditions');
  const pepper = randomBytes(32).toString('hex');
  const suffix = randomBytes(4).toString('hex');
  /** An account with an application and a key of its own. */
  async function tenant(name: string): Promise<string> {
    const account = `acct_bench_${name}_${suffix}`;
    const application = `app_bench_${name}_${suffix}`;
    await db.account.create({ data: { id: account, name: `bench renditions ${name}` } });
    await db.application.create({
      data: { id: application, account_id: account, service: 'property', name: `bench renditions ${name}` },
    });
    return (
      await createApiKey(db, {
        applicationId: application,
        service: propertyDescriptor,
        environment: 'sandbox',
        scopes: ['properties:read', 'properties:write'],
        pepper,
      })
    ).plaintext;
  }
  const uploaderKey = await tenant('uploader');
  const otherKey = await tenant('other');

  // The photos: a few photo-like 12 MP JPEGs, each upload a variant of one (its own bytes and pixels).
  const total = WARMUP + FILES * LEVELS.length;
  const generated = performance.now();
  const family = await photoLikeFamily(WIDTH, HEIGHT, QUALITY, NOISE, basesFor(total, 2));
  const meanBytes = family.bases.reduce((sum, b) => sum + b.length, 0) / family.bases.length;
  console.error(
    `${family.bases.length} base photos of ${WIDTH} × ${HEIGHT}, ${(meanBytes / MiB).toFixed(2)} MiB on average, made in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
  );

  const service = await startUploadsService({ databaseUrl, dataDir: join(dataDir, 'service'), pepper, cleanups });
  const uploads = new Agent({ connections: Math.max(...LEVELS) });
  cleanups.push(() => uploads.close());
  const otherClient = new Agent({ connections: 1 });
  cleanups.push(() => otherClient.close());

  async function newProperty(key: string, dispatcher: Agent): Promise<string> {
    const { statusCode, body } = await request(`${service.api}/v1/properties`, {
      method: 'POST',
      dispatcher,
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

  /** `count` new photos as prepared request bodies, and the properties they go to (prepared before the clock starts). */
  async function prepareUploads(count: number) {
    const properties: string[] = [];
    for (let i = 0; i < count; i += PER_PROPERTY) properties.push(await newProperty(uploaderKey, uploads));
    const photos = Array.from({ length: count }, () => family.next());
    const payloads = photos.map((data, i) =>
      multipart([
        { name: 'kind', value: 'photo' },
        { name: 'file', filename: `photo-${i}.jpg`, type: 'image/jpeg', data },
      ]),
    );
    return { properties, photos, payloads };
  }

  /** Uploads the prepared photos, `parallel` at a time: elapsed seconds, bytes, each request's time. */
  async function uploadAll(
    { properties, photos, payloads }: Awaited<ReturnType<typeof prepareUploads>>,
    parallel: number,
  ) {
    const requestMs: number[] = [];
    const seconds = await pool(photos.length, parallel, async (i) => {
      const { payload, contentType } = payloads[i];
      const started = performance.now();
      const { statusCode, body } = await request(
        `${service.api}/v1/properties/${properties[Math.floor(i / PER_PROPERTY)]}/media`,
        {
          method: 'POST',
          dispatcher: uploads,
          headers: { apikey: uploaderKey, 'content-type': contentType },
          body: payload,
        },
      );
      const text = await body.text();
      requestMs.push(performance.now() - started);
      if (statusCode !== 201) throw new Error(`upload ${i}: ${statusCode} ${text}`);
      const m = JSON.parse(text) as {
        size: number;
        width: number | null;
        height: number | null;
        renditions: { variant: string; width: number; height: number }[];
      };
      const renditions = m.renditions
        .map((r) => `${r.variant} ${r.width}x${r.height}`)
        .sort()
        .join(', ');
      if (
        m.size !== photos[i].length ||
        m.width !== WIDTH ||
        m.height !== HEIGHT ||
        renditions !== 'large 1920x1440, thumbnail 640x480'
      ) {
        throw new Error(`upload ${i}: unexpected record ${text}`);
      }
    });
    return { seconds, bytes: photos.reduce((sum, p) => sum + p.length, 0), requestMs };
  }

  /** The other tenant: GET its property, one request at a time, until `done()`; each request's time (ms). */
  async function otherTenantLoop(propertyId: string, done: () => boolean): Promise<number[]> {
    const times: number[] = [];
    while (!done()) {
      const started = performance.now();
      const { statusCode, body } = await request(`${service.api}/v1/properties/${propertyId}`, {
        dispatcher: otherClient,
        headers: { apikey: otherKey },
      });
      await body.text();
      times.push(performance.now() - started);
      if (statusCode !== 200) throw new Error(`GET /v1/properties/${propertyId} of the other tenant: ${statusCode}`);
    }
    return times;
  }
  const otherProperty = await newProperty(otherKey, otherClient);
  /** This process's event loop (the load generator's, which times the other tenant's requests). */
  const generatorLoop = monitorEventLoopDelay({ resolution: 10 });
  generatorLoop.enable();
  const idle = async () => {
    await service.command('mark');
    generatorLoop.reset();
    const until = performance.now() + IDLE_SECONDS * 1000;
    const latency = latencyOf(await otherTenantLoop(otherProperty, () => performance.now() > until));
    const peak = await service.command('peak');
    return {
      latency,
      loopDelay: peak.loopDelay,
      generatorLoopMax: generatorLoop.max / 1e6,
      childAtRest: peak.sandbox.peakRss,
      children: peak.sandbox.most,
    };
  };

  // Warm-up (not counted): the sandbox's children and their bundle, JIT, pools, connections; the other tenant's loop for --idle-seconds.
  await uploadAll(await prepareUploads(WARMUP), 1);
  const warmUntil = performance.now() + IDLE_SECONDS * 1000;
  await otherTenantLoop(otherProperty, () => performance.now() > warmUntil);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const baseline = (await service.command('mark')).rss;

  const idleBefore = await idle();
  const levels: Level[] = [];
  for (const parallel of LEVELS) {
    const prepared = await prepareUploads(FILES);
    await service.command('mark');
    generatorLoop.reset();
    let uploading = true;
    const other = otherTenantLoop(otherProperty, () => !uploading);
    other.catch(() => {}); // handled below: awaited after the uploads
    let up: Awaited<ReturnType<typeof uploadAll>>;
    try {
      up = await uploadAll(prepared, parallel);
    } finally {
      uploading = false;
      await other.catch(() => {});
    }
    const peak = await service.command('peak');
    if (peak.sandbox.tasks.failed > 0) throw new Error(`${peak.sandbox.tasks.failed} sandbox tasks failed`);
    const level = {
      parallel,
      ...up,
      peakRss: peak.peak,
      growth: peak.peak - baseline,
      sandbox: peak.sandbox,
      loopDelay: peak.loopDelay,
      generatorLoopMax: generatorLoop.max / 1e6,
      other: latencyOf(await other),
    };
    levels.push(level);
    console.error(
      `${parallel} in parallel: ${(FILES / level.seconds).toFixed(2)} files/s, service RSS +${(level.growth / MiB).toFixed(1)} MiB, sandbox child peak ${(level.sandbox.tasks.peakRssMax / MiB).toFixed(0)} MiB`,
    );
  }
  const idleAfter = await idle();

  const f = (x: number, digits = 1) => x.toFixed(digits);
  const mib = (bytes: number) => f(bytes / MiB, 0);
  const ms = (x: number) => f(x, x < 10 ? 1 : 0);
  console.log(
    `\n${FILES} uploads per level of ${WIDTH} × ${HEIGHT} JPEGs (gradients and noise ±${NOISE / 2}, q${QUALITY}, ${f(meanBytes / MiB, 2)} MiB on average); ` +
      `sandbox: ${DEFAULT_SANDBOX.processes} processes of at most ${DEFAULT_SANDBOX.memoryMb} MiB; service RSS after warm-up ${mib(baseline)} MiB; ` +
      `a sandbox child at rest (idle phases, largest): ${mib(idleBefore.childAtRest)} MiB before, ${mib(idleAfter.childAtRest)} MiB after (${idleBefore.children} and ${idleAfter.children} alive)\n`,
  );
  console.log(
    '| uploads in parallel | files/s | MiB/s | upload request p50 / max | sandbox task p50 / max | service RSS peak (growth) | sandbox child peak RSS per task, p50 / max | child VmHWM max | children together, peak RSS |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const l of levels) {
    const requests = [...l.requestMs].sort((a, b) => a - b);
    const t = l.sandbox.tasks;
    console.log(
      `| ${l.parallel} | ${f(FILES / l.seconds, 2)} | ${f(l.bytes / MiB / l.seconds)} | ${ms(at(requests, 0.5))} / ${ms(requests[requests.length - 1])} ms | ${ms(t.msMedian)} / ${ms(t.msMax)} ms | ` +
        `${mib(l.peakRss)} (${l.growth >= 0 ? '+' : ''}${f(l.growth / MiB)}) MiB | ${mib(t.peakRssMedian)} / ${mib(t.peakRssMax)} MiB | ${mib(l.sandbox.hwm)} MiB | ${mib(l.sandbox.peakTotal)} MiB (${l.sandbox.most} ${l.sandbox.most === 1 ? 'child' : 'children'}) |`,
    );
  }
  console.log(
    "\nOther tenant: GET /v1/properties/{id}, one at a time; the service's event loop: gaps between its 10 ms timer ticks\n",
  );
  console.log(
    '| while | requests | p50 | p99 | max | service event loop gap p99 / max | load generator loop gap max |',
  );
  console.log('|---|---|---|---|---|---|---|');
  const row = (label: string, l: ReturnType<typeof latencyOf>, loop: { p99: number; max: number }, generator: number) =>
    console.log(
      `| ${label} | ${l.n} | ${ms(l.p50)} ms | ${ms(l.p99)} ms | ${ms(l.max)} ms | ${ms(loop.p99)} / ${ms(loop.max)} ms | ${ms(generator)} ms |`,
    );
  row(`idle, before (${IDLE_SECONDS} s)`, idleBefore.latency, idleBefore.loopDelay, idleBefore.generatorLoopMax);
  for (const l of levels)
    row(`${l.parallel} upload${l.parallel > 1 ? 's' : ''} in parallel`, l.other, l.loopDelay, l.generatorLoopMax);
  row(`idle, after (${IDLE_SECONDS} s)`, idleAfter.latency, idleAfter.loopDelay, idleAfter.generatorLoopMax);
  console.log(`\nMedian upload request time over all levels: ${ms(median(levels.flatMap((l) => l.requestMs)))} ms`);
}

await runBenchmark(main);
