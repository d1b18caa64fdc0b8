// A portal channel's live listings pushed to a real sshd (the test kit's startSftpServer) as one
// OpenImmo ZIP by runPortalTransfer, as the worker's job runs it: first in full (VOLL), then a
// partial transfer (TEIL) after --changed listings got a newer listing, then a run with nothing to
// send. The runs happen in a process of their own (bench/portal-transfer-run.ts), so that its
// memory is the transfer's: each run's wall time, the ZIP's size and bytes/s, the process's peak
// RSS and heap growth (process.memoryUsage() every 50 ms) and its event-loop delay; apart, the
// cost of loading the listings, of building the XML and of the whole ZIP into a null sink (no
// network). The data is written straight into the tables (bench/portal-transfer-seed.ts). The
// file on the server is checked: its size is the reported bytes, `unzip -tq` passes, it holds
// openimmo.xml and each distinct image once, and openimmo.xml is valid against the official XSD.
//   pnpm bench:portal-transfer [--listings 500] [--photos 6] [--photo-kib 200] [--changed 10]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createFilesystemStorage } from '@platform/storage';
import { startSftpServer } from '@platform/testkit';
import { SecretBox } from '@platform/webhooks';
import { ACCOUNT_ID, CHANNEL_ID, changeListings, seedChannel, seedListings } from './portal-transfer-seed.js';
import { startMigratedDatabase, stopProcess } from './support.js';
// Not a dependency of the root package: imported by its path, as the benchmarks import the apps' internals.
import { deliverFile } from '../packages/transfer/src/index.js';

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

const database = await startMigratedDatabase('portal-transfer', { port: 25_000 + Math.floor(Math.random() * 5_000) });
const { db } = database;
await db.account.create({ data: { id: ACCOUNT_ID, name: 'Muster Immobilien GmbH' } });
const sftp = await startSftpServer();
const storageRoot = mkdtempSync(join(tmpdir(), 'bench-portal-transfer-blobs-'));
const storage = createFilesystemStorage({ root: storageRoot });
const secretKey = randomBytes(32).toString('hex');
const box = new SecretBox(secretKey);
const failures: string[] = [];
const demand = (ok: boolean, what: string) => ok || failures.push(what);

/** What the run process answers to `run` (bench/portal-transfer-run.ts). */
interface Measured {
  value: { outcome: string; transfer_id?: string; umfang?: string; objects?: number };
  seconds: number;
  [figure: string]: unknown;
}

/** The run process, once it is ready; `ask(line)`: its one-line JSON answer. */
async function startRunner() {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', new URL('./portal-transfer-run.ts', import.meta.url).pathname],
    {
      env: {
        ...process.env,
        BENCH_DATABASE_URL: database.pg.adminUrl,
        BENCH_BLOBS: storageRoot,
        BENCH_SECRET_KEY: secretKey,
        BENCH_CHANNEL_ID: CHANNEL_ID,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  await next(); // ready
  return {
    child,
    async ask<T>(line: string): Promise<T> {
      const answer = next();
      child.stdin!.write(`${line}\n`);
      return JSON.parse(await answer) as T;
    },
  };
}

/** The file a transfer left on the server, checked against what the run reported and what it should hold. */
function verify(transfer: { file_name: string; bytes: bigint | null }, images: number, objects: number) {
  const path = join(sftp.folder, transfer.file_name);
  const size = statSync(path).size;
  const unzipOk = spawnSync('unzip', ['-tq', path]).status === 0;
  const names = execFileSync('unzip', ['-Z1', path], { encoding: 'utf8', maxBuffer: 64 * MIB })
    .split('\n')
    .filter(Boolean);
  const xml = execFileSync('unzip', ['-p', path, 'openimmo.xml'], { maxBuffer: 512 * MIB });
  const xsd = spawnSync('xmllint', ['--noout', '--schema', XSD, '-'], {
    input: xml,
    encoding: 'utf8',
    maxBuffer: 64 * MIB,
  });
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
  demand(
    check.size_equals_reported_bytes,
    `${transfer.file_name}: ${size} bytes on the server, ${transfer.bytes} reported`,
  );
  demand(unzipOk, `${transfer.file_name}: unzip -tq failed`);
  demand(
    names.length === 1 + images && new Set(names).size === names.length,
    `${transfer.file_name}: ${names.length} entries`,
  );
  demand(check.openimmo_xml_first, `${transfer.file_name}: openimmo.xml is not the first entry`);
  demand(immobilien === objects, `${transfer.file_name}: ${immobilien} immobilie elements, ${objects} expected`);
  demand(check.xsd_valid, `${transfer.file_name}: XSD: ${xsd.stderr.slice(0, 500)}`);
  demand(addressed, `${transfer.file_name}: an image's bytes do not match its name`);
  demand(check.no_other_file_on_server, 'a temporary file was left on the server');
  return check;
}

/**
 * The floor of this machine: the same file put to the same sshd by OpenSSH's own `sftp` client (C,
 * its default cipher), timed, then removed. What the transfer spends beyond it is the JS client's.
 */
function opensshPut(fileName: string) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-portal-transfer-ssh-'));
  try {
    writeFileSync(join(dir, 'key'), sftp.privateKey, { mode: 0o600 });
    writeFileSync(join(dir, 'batch'), `put ${join(sftp.folder, fileName)} ${sftp.folder}/openssh-copy.bin\n`);
    const bytes = statSync(join(sftp.folder, fileName)).size;
    const start = performance.now();
    execFileSync('sftp', [
      ...['-q', '-i', join(dir, 'key'), '-P', String(sftp.port), '-b', join(dir, 'batch')],
      ...['-o', 'StrictHostKeyChecking=no', '-o', `UserKnownHostsFile=${join(dir, 'known_hosts')}`],
      `${sftp.username}@${sftp.host}`,
    ]);
    const seconds = (performance.now() - start) / 1000;
    demand(statSync(join(sftp.folder, 'openssh-copy.bin')).size === bytes, 'the OpenSSH copy is incomplete');
    return { seconds: round(seconds, 3), mib_per_second: round(bytes / MIB / seconds, 1) };
  } finally {
    rmSync(join(sftp.folder, 'openssh-copy.bin'), { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same file put by the transfer's own client (deliverFile, ssh2) from disk: the upload without building the ZIP. */
async function ssh2Put(fileName: string) {
  const path = join(sftp.folder, fileName);
  const { host, port, username, folder } = sftp;
  const drop = { protocol: 'sftp' as const, host, port, username, secret: sftp.privateKey, folder };
  const start = performance.now();
  const { bytes } = await deliverFile(drop, 'ssh2-copy.zip', () => createReadStream(path));
  const seconds = (performance.now() - start) / 1000;
  demand(bytes === statSync(path).size, 'the ssh2 copy is incomplete');
  rmSync(join(sftp.folder, 'ssh2-copy.zip'), { force: true });
  return { seconds: round(seconds, 3), mib_per_second: round(bytes / MIB / seconds, 1) };
}

/** One run of the transfer in the run process, with its file checked on the server. */
async function transfer(
  runner: Awaited<ReturnType<typeof startRunner>>,
  umfang: 'VOLL' | 'TEIL',
  images: number,
  objects: number,
) {
  const { value: result, ...figures } = await runner.ask<Measured>('run');
  const row = result.transfer_id ? await db.portalTransfer.findUnique({ where: { id: result.transfer_id } }) : null;
  if (result.outcome !== 'transferred' || !row)
    throw new Error(`the ${umfang} transfer ended ${result.outcome}: ${row?.reason ?? ''}`);
  demand(result.umfang === umfang && result.objects === objects, `${umfang}: ${JSON.stringify(result)}`);
  const bytes = Number(row.bytes);
  return {
    umfang: result.umfang,
    objects: result.objects,
    zip_mib: mib(bytes),
    zip_bytes: bytes,
    mib_per_second: round(bytes / MIB / figures.seconds, 1),
    ...figures,
    verified: verify(row, images, objects),
  };
}

let runner: Awaited<ReturnType<typeof startRunner>> | undefined;
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
  runner = await startRunner();
  const loadBefore = loadavg();

  const voll = await transfer(runner, 'VOLL', new Set(allPhotos.map((p) => p.sha256)).size, LISTINGS);
  const breakdown = await runner.ask<Record<string, number>>('phases');
  const openssh = opensshPut(voll.verified.file);
  const ssh2 = await ssh2Put(voll.verified.file);

  const changedProperties = [...listings.keys()].slice(0, CHANGED);
  await changeListings(db, listings, changedProperties, shapes, new Date());
  const changedPhotos = changedProperties.flatMap((p) => listings.get(p)!.photos.map((photo) => photo.sha256));
  const teil = await transfer(runner, 'TEIL', new Set(changedPhotos).size, CHANGED);

  const idle = await runner.ask<Measured>('run');
  demand(idle.value.outcome === 'nothing_to_send', `the run after TEIL: ${JSON.stringify(idle.value)}`);
  const transferred = await db.portalObject.count({ where: { channel_id: CHANNEL_ID, state: 'transferred' } });
  demand(transferred === LISTINGS, `${transferred} of ${LISTINGS} objects transferred`);
  const sizes = allPhotos.map((p) => p.size).sort((a, b) => a - b);

  console.log(
    JSON.stringify(
      {
        machine: {
          cpus: cpus().length,
          load_average_1m_before: round(loadBefore[0]!, 1),
          after: round(loadavg()[0]!, 1),
        },
        listings: LISTINGS,
        photos_per_listing: PHOTOS,
        photo: {
          distinct_blobs: new Set(allPhotos.map((p) => p.sha256)).size,
          kib_median: Math.round(sizes[sizes.length >> 1]! / 1024),
          pixels: `${shapes.width} × ${shapes.height}`,
        },
        seed_seconds: seedSeconds,
        voll,
        voll_without_network: breakdown,
        same_file_with_openssh_sftp: openssh,
        same_file_from_disk_with_deliver_file: ssh2,
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
  runner?.child.stdin!.end(); // the run process exits when its input ends (SIGTERM after 5 s otherwise)
  if (runner)
    await Promise.race([
      new Promise((resolve) => runner!.child.once('exit', resolve)),
      new Promise((resolve) => setTimeout(resolve, 5_000)),
    ]).then(() => stopProcess(runner!.child));
  await sftp.stop();
  rmSync(storageRoot, { recursive: true, force: true });
  await database.close();
}
if (failures.length > 0) {
  console.error(`FAILED:\n${failures.join('\n')}`);
  process.exit(1);
}
process.exit(0);
