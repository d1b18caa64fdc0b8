// A portal channel's live listings pushed to a real sshd (the test kit's startSftpServer) as one
// OpenImmo ZIP by runPortalTransfer, as the worker's job runs it: first in full (VOLL), then a
// partial transfer (TEIL) after --changed listings got a newer listing, then a run with nothing to
// send. Measures each run's wall time, the ZIP's size and bytes/s, the process's peak RSS and heap
// growth (process.memoryUsage() every 50 ms) and its event-loop delay; apart, the cost of loading
// the listings, of building the XML and of building the whole ZIP into a null sink (no network).
// The file on the server is checked: its size is the reported bytes, `unzip -tq` passes, it holds
// openimmo.xml and each distinct image once, and openimmo.xml is valid against the official XSD.
//   pnpm bench:portal-transfer [--listings 500] [--photos 6] [--photo-kib 200] [--changed 10]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createFilesystemStorage } from '@platform/storage';
import { startSftpServer } from '@platform/testkit';
import { SecretBox } from '@platform/webhooks';
import { ACCOUNT_ID, CHANNEL_ID, changeListings, seedChannel, seedListings } from './portal-transfer-seed.js';
import { startBenchDatabase } from './support.js';
import { channelRepository, contactOf } from '../apps/property-service/src/channels/index.js';
import { listingRepository, snapshotOf } from '../apps/property-service/src/listings/index.js';
import { runPortalTransfer, type PortalRunResult } from '../apps/property-service/src/portals/index.js';
import { portalPackage, portalXml, type PortalItem } from '../apps/property-service/src/portals/package.js';

const { values } = parseArgs({
  options: {
    listings: { type: 'string', default: '500' },
    photos: { type: 'string', default: '6' },
    'photo-kib': { type: 'string', default: '200' },
    changed: { type: 'string', default: '10' },
  },
});
const LISTINGS = Number(values.listings);
const PHOTOS = Number(values.photos);
const CHANGED = Math.min(Number(values.changed), LISTINGS);
const XSD = new URL('../apps/property-service/test/validation/openimmo/openimmo_127b.xsd', import.meta.url).pathname;
const MIB = 1024 * 1024;
const mib = (bytes: number) => Number((bytes / MIB).toFixed(1));
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

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
    seconds: round(seconds, 3),
    process_cpu_seconds: round((used.user + used.system) / 1e6),
    rss_mib: { before: mib(before.rss), peak: mib(peak.rss), growth: mib(peak.rss - before.rss) },
    heap_used_mib: { before: mib(before.heapUsed), peak: mib(peak.heapUsed), growth: mib(peak.heapUsed - before.heapUsed) },
    external_mib: { before: mib(before.external), peak: mib(peak.external) },
    event_loop_delay_ms: { p99: round(loop.percentile(99) / 1e6, 1), max: round(loop.max / 1e6, 1) },
  };
}

const database = await startBenchDatabase('portal-transfer', [ACCOUNT_ID]);
const { db } = database;
const sftp = await startSftpServer();
const storageRoot = mkdtempSync(join(tmpdir(), 'bench-portal-transfer-blobs-'));
const storage = createFilesystemStorage({ root: storageRoot });
const box = new SecretBox(randomBytes(32).toString('hex'));
const failures: string[] = [];
const demand = (ok: boolean, what: string) => ok || failures.push(what);

/** The file a transfer left on the server, checked against what the run reported and what it should hold. */
function verify(transfer: { file_name: string; bytes: bigint | null }, images: number, objects: number) {
  const path = join(sftp.folder, transfer.file_name);
  const size = statSync(path).size;
  const unzipOk = spawnSync('unzip', ['-tq', path]).status === 0;
  const names = execFileSync('unzip', ['-Z1', path], { encoding: 'utf8', maxBuffer: 64 * MIB }).split('\n').filter(Boolean);
  const xml = execFileSync('unzip', ['-p', path, 'openimmo.xml'], { maxBuffer: 512 * MIB });
  const xsd = spawnSync('xmllint', ['--noout', '--schema', XSD, '-'], { input: xml, encoding: 'utf8', maxBuffer: 64 * MIB });
  const immobilien = xml.toString('utf8').match(/<immobilie>/g)?.length ?? 0;
  // Three images read back: their bytes are the content address they are named after.
  const sampled = names.slice(1).filter((_, i, all) => i === 0 || i === all.length >> 1 || i === all.length - 1);
  const addressed = sampled.every((name) => {
    const bytes = execFileSync('unzip', ['-p', path, name], { maxBuffer: 64 * MIB });
    return name === `bilder/${createHash('sha256').update(bytes).digest('hex')}.jpg`;
  });
  const check = {
    file: transfer.file_name,
    size_equals_reported_bytes: size === Number(transfer.bytes),
    unzip_tq: unzipOk,
    entries: names.length,
    entries_expected: 1 + images,
    openimmo_xml_first: names[0] === 'openimmo.xml',
    immobilien_in_xml: immobilien,
    xsd_valid: xsd.status === 0,
    sampled_images_match_their_address: addressed,
    no_other_file_on_server: sftp.list().every((name) => name.endsWith('.zip')),
  };
  demand(check.size_equals_reported_bytes, `${transfer.file_name}: ${size} bytes on the server, ${transfer.bytes} reported`);
  demand(unzipOk, `${transfer.file_name}: unzip -tq failed`);
  demand(names.length === 1 + images && new Set(names).size === names.length, `${transfer.file_name}: ${names.length} entries`);
  demand(check.openimmo_xml_first, `${transfer.file_name}: openimmo.xml is not the first entry`);
  demand(immobilien === objects, `${transfer.file_name}: ${immobilien} immobilie elements, ${objects} expected`);
  demand(check.xsd_valid, `${transfer.file_name}: XSD: ${xsd.stderr.slice(0, 500)}`);
  demand(addressed, `${transfer.file_name}: an image's bytes do not match its name`);
  demand(check.no_other_file_on_server, 'a temporary file was left on the server');
  return check;
}

/** One run of the transfer, measured, with its file checked. */
async function transfer(umfang: 'VOLL' | 'TEIL', images: number, objects: number) {
  const run = await measured(() =>
    runPortalTransfer(
      { db, now: new Date(), storage, secrets: box, targets: { allowPrivateTargets: true } },
      CHANNEL_ID,
    ),
  );
  const result: PortalRunResult = run.value;
  if (result.outcome !== 'transferred') {
    const row = 'transfer_id' in result ? await db.portalTransfer.findUnique({ where: { id: result.transfer_id } }) : null;
    throw new Error(`the ${umfang} transfer ended ${result.outcome}: ${row?.reason ?? ''}`);
  }
  demand(result.umfang === umfang && result.objects === objects, `${umfang}: ${JSON.stringify(result)}`);
  const row = await db.portalTransfer.findUniqueOrThrow({ where: { id: result.transfer_id } });
  const bytes = Number(row.bytes);
  const { value: _value, ...figures } = run;
  return {
    umfang: result.umfang,
    objects: result.objects,
    zip_mib: mib(bytes),
    zip_bytes: bytes,
    mib_per_second: round(bytes / MIB / run.seconds, 1),
    ...figures,
    verified: verify(row, images, objects),
  };
}

/** Where the time of a full transfer goes, without the network: loading the listings, the XML, the whole ZIP into a null sink. */
async function phases() {
  const channel = (await channelRepository.byId(db, CHANNEL_ID))!;
  const objects = await db.portalObject.findMany({ where: { channel_id: CHANNEL_ID, action: 'CHANGE' } });
  const load = await measured(() => listingRepository.manyWithParts(db, objects.map((o) => o.listing_id)));
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
  };
}

try {
  const seedStart = performance.now();
  await seedChannel(db, sftp, box, new Date());
  const { listings, shapes } = await seedListings(
    db,
    storage,
    { listings: LISTINGS, photos: PHOTOS, photoBytes: Number(values['photo-kib']) * 1024 },
    new Date(),
  );
  await db.$executeRawUnsafe('ANALYZE');
  const seedSeconds = round((performance.now() - seedStart) / 1000, 1);
  const allPhotos = [...listings.values()].flatMap((l) => l.photos);
  const loadBefore = loadavg();

  const voll = await transfer('VOLL', new Set(allPhotos.map((p) => p.sha256)).size, LISTINGS);
  const breakdown = await phases();

  const changedProperties = [...listings.keys()].slice(0, CHANGED);
  await changeListings(db, listings, changedProperties, shapes, new Date());
  const changedPhotos = changedProperties.flatMap((p) => listings.get(p)!.photos.map((photo) => photo.sha256));
  const teil = await transfer('TEIL', new Set(changedPhotos).size, CHANGED);

  const idle = await measured(() =>
    runPortalTransfer({ db, now: new Date(), storage, secrets: box, targets: { allowPrivateTargets: true } }, CHANNEL_ID),
  );
  demand(idle.value.outcome === 'nothing_to_send', `the run after TEIL: ${JSON.stringify(idle.value)}`);
  const transferred = await db.portalObject.count({ where: { channel_id: CHANNEL_ID, state: 'transferred' } });
  demand(transferred === LISTINGS, `${transferred} of ${LISTINGS} objects transferred`);

  console.log(
    JSON.stringify(
      {
        machine: { cpus: cpus().length, load_average_1m_before: round(loadBefore[0]!, 1), after: round(loadavg()[0]!, 1) },
        listings: LISTINGS,
        photos_per_listing: PHOTOS,
        photo: { distinct_blobs: allPhotos.length, kib_median: Math.round(allPhotos.map((p) => p.size).sort((a, b) => a - b)[allPhotos.length >> 1]! / 1024), pixels: `${shapes.width} × ${shapes.height}` },
        seed_seconds: seedSeconds,
        voll,
        voll_without_network: breakdown,
        teil: { changed_listings: CHANGED, ...teil },
        nothing_to_send: { seconds: idle.seconds, outcome: idle.value.outcome },
        objects_transferred: transferred,
        failures,
      },
      null,
      2,
    ),
  );
} finally {
  await sftp.stop();
  rmSync(storageRoot, { recursive: true, force: true });
  await database.close();
}
if (failures.length > 0) {
  console.error(`FAILED:\n${failures.join('\n')}`);
  process.exit(1);
}
process.exit(0);
