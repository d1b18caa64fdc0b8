// The transfer runs of bench/portal-transfer.ts in a process of their own, as the worker runs the
// job: the process's memory is the transfer's, not the seeding's. Each line of stdin is answered on
// stdout with one JSON line: `run` runs the channel's transfer now (runPortalTransfer, measured);
// `phases` measures apart what a full transfer does besides the network (loading the listings,
// building the XML, building the whole ZIP into a null sink). Exits when stdin ends.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createPrisma } from '@platform/db';
import { createFilesystemStorage } from '@platform/storage';
import { SecretBox } from '@platform/webhooks';
import { channelRepository, contactOf } from '../apps/property-service/src/channels/index.js';
import { listingRepository, snapshotOf } from '../apps/property-service/src/listings/index.js';
import { runPortalTransfer } from '../apps/property-service/src/portals/index.js';
import { portalPackage, portalXml, type PortalItem } from '../apps/property-service/src/portals/package.js';

const env = process.env as Record<string, string>;
const db = createPrisma({ url: env.BENCH_DATABASE_URL, maxConnections: 5 });
const storage = createFilesystemStorage({ root: env.BENCH_BLOBS });
const secrets = new SecretBox(env.BENCH_SECRET_KEY);
const channelId = env.BENCH_CHANNEL_ID;
const MIB = 1024 * 1024;
const mib = (bytes: number) => Number((bytes / MIB).toFixed(1));
const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** Runs `run` while sampling the process's memory every 50 ms and its event-loop delay. */
async function measured<T>(run: () => Promise<T>) {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  const peak = { rss: before.rss, heapUsed: before.heapUsed, external: before.external };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    peak.external = Math.max(peak.external, now.external);
  };
  const timer = setInterval(sample, 50);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu = process.cpuUsage();
  const start = performance.now();
  let value: T;
  try {
    value = await run();
  } finally {
    clearInterval(timer);
    loop.disable();
  }
  const seconds = (performance.now() - start) / 1000;
  sample();
  const used = process.cpuUsage(cpu);
  return {
    value,
    seconds: round(seconds),
    process_cpu_seconds: round((used.user + used.system) / 1e6, 2),
    rss_mib: { before: mib(before.rss), peak: mib(peak.rss), growth: mib(peak.rss - before.rss) },
    heap_used_mib: {
      before: mib(before.heapUsed),
      peak: mib(peak.heapUsed),
      growth: mib(peak.heapUsed - before.heapUsed),
    },
    external_mib: { before: mib(before.external), peak: mib(peak.external) },
    event_loop_delay_ms: { p99: round(loop.percentile(99) / 1e6, 1), max: round(loop.max / 1e6, 1) },
  };
}

const run = () =>
  measured(() =>
    runPortalTransfer({ db, now: new Date(), storage, secrets, targets: { allowPrivateTargets: true } }, channelId),
  );

async function phases() {
  const channel = (await channelRepository.byId(db, channelId))!;
  const objects = await db.portalObject.findMany({ where: { channel_id: channelId, action: 'CHANGE' } });
  const load = await measured(() =>
    listingRepository.manyWithParts(
      db,
      objects.map((o) => o.listing_id),
    ),
  );
  const items: PortalItem[] = load.value.map((row) => ({
    objectId: row.property_id,
    action: 'CHANGE',
    listingId: row.id,
    snapshot: snapshotOf(row),
  }));
  const input = {
    anbieternr: 'ANB-BENCH',
    firma: 'bench',
    contact: contactOf(channel)!,
    generatedAt: new Date().toISOString(),
    umfang: 'VOLL' as const,
    items,
    readBlob: async (sha256: string) => (await storage.get(sha256))!.stream,
  };
  const xml = await measured(async () => portalXml(input));
  let zipBytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      zipBytes += chunk.length;
      done();
    },
  });
  const zip = await measured(() => pipeline(portalPackage(input), sink));
  return {
    load_listings_s: load.seconds,
    xml_build_s: xml.seconds,
    xml_mib: mib(Buffer.byteLength(xml.value)),
    xml_heap_growth_mib: xml.heap_used_mib.growth,
    zip_to_null_sink_s: zip.seconds,
    zip_to_null_sink_mib_per_s: round(zipBytes / MIB / zip.seconds, 1),
    zip_to_null_sink_rss_growth_mib: zip.rss_mib.growth,
    zip_to_null_sink_heap_growth_mib: zip.heap_used_mib.growth,
  };
}

await db.$queryRaw`SELECT 1`;
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const answer = line === 'run' ? await run() : line === 'phases' ? await phases() : { unknown: line };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
await db.$disconnect();
process.exit(0);
