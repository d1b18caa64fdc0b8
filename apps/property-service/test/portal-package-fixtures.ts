import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import sharp from 'sharp';
import type { ListingMediaSnapshot, ListingPropertySnapshot, ListingSnapshot } from '../src/listings/index.js';
import type { PortalItem } from '../src/portals/package.js';

/* Snapshots, images and `unzip` readers for the portal package tests (portal-package*.test.ts). */

export const GENERATED_AT = '2025-06-15T08:30:00Z';

export const CONTACT = {
  name: 'Vermietungsteam Mitte',
  company: 'Muster & Söhne Immobilien GmbH',
  email: 'team-mitte@muster-immobilien.example',
  phone: '+49 30 1234567',
};

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A real JPEG of one colour (distinct bytes per colour), its address, and a blob store holding it. */
export async function jpeg(rgb: [number, number, number], size = 64): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export function blobStore(blobs: readonly Buffer[]) {
  const byAddress = new Map(blobs.map((b) => [sha256(b), b]));
  const reads: string[] = [];
  return {
    reads,
    /** Streams the blob in 1 KiB chunks, as storage would, so the package is built from many pushes. */
    readBlob: async (address: string) => {
      reads.push(address);
      const bytes = byAddress.get(address);
      if (!bytes) throw new Error(`no blob ${address}`);
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += 1024) chunks.push(bytes.subarray(at, at + 1024));
      return Readable.from(chunks);
    },
  };
}

export const medium = (
  id: string,
  kind: ListingMediaSnapshot['kind'],
  position: number,
  bytes: Buffer,
  over: Partial<ListingMediaSnapshot> = {},
): ListingMediaSnapshot => ({
  id,
  kind,
  title: `Bild ${id}`,
  position,
  content_type: kind === 'document' ? 'application/pdf' : 'image/jpeg',
  size: bytes.length,
  sha256: sha256(bytes),
  width: 64,
  height: 64,
  thumbnail: null,
  published: kind !== 'document',
  ...over,
});

export const flat: ListingPropertySnapshot = {
  id: 'prop_flat',
  type: 'apartment',
  title: 'Altbauwohnung mit Stuck',
  description: 'Zwei Zimmer, Dielen, Südbalkon.',
  address: {
    street: 'Kastanienallee 5',
    house_number: '5',
    postal_code: '10435',
    city: 'Berlin',
    country: 'DE',
    location_precision: 'exact',
  },
  living_area_sqm: 58,
  lot_size_sqm: null,
  rooms: 2,
  year_built: 1905,
  floor: 3,
  purchase_price_eur: null,
  cold_rent_eur: 1150,
  service_charges_eur: 210,
  available_from: '2025-08-01',
  energy_certificate: {
    type: 'consumption',
    final_energy_demand_kwh: 131,
    energy_source: 'Gas',
    system_year: 2012,
    efficiency_class: 'E',
    valid_until: '2031-03-31',
    exemption: null,
  },
  commission: null,
};

export const villa: ListingPropertySnapshot = {
  ...flat,
  id: 'prop_villa',
  type: 'house',
  title: 'Villa am See',
  description: null,
  address: {
    street: 'Uferweg 1',
    house_number: '1',
    postal_code: '14467',
    city: 'Potsdam',
    country: 'DE',
    location_precision: 'street',
  },
  living_area_sqm: 240,
  lot_size_sqm: 1400,
  rooms: 7,
  floor: null,
  purchase_price_eur: 1_890_000,
  cold_rent_eur: null,
  service_charges_eur: null,
  commission: {
    buyer_percent: 3.57,
    seller_percent: 3.57,
    note: null,
    engaged_by: null,
    buyer_is_consumer: true,
    tenant_months: null,
    landlord_months: null,
  },
};

export const plot: ListingPropertySnapshot = {
  ...villa,
  id: 'prop_plot',
  type: 'land',
  title: 'Baugrundstück',
  address: { ...villa.address, street: 'Feldweg 9', house_number: '9', location_precision: 'neighborhood' },
  living_area_sqm: null,
  rooms: null,
  year_built: null,
  energy_certificate: null,
  purchase_price_eur: 240_000,
};

export const snapshot = (property: ListingPropertySnapshot, media: ListingMediaSnapshot[] = []): ListingSnapshot => ({
  property,
  media,
  taken_at: '2025-06-14T10:00:00Z',
});

export const item = (objectId: string, snap: ListingSnapshot, action: PortalItem['action'] = 'CHANGE'): PortalItem => ({
  objectId,
  action,
  listingId: `lst_${objectId}`,
  snapshot: snap,
});

/** Writes a stream to a new temporary file and gives its path. */
export async function toFile(stream: NodeJS.ReadableStream, name = 'package.zip'): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'portal-package-')), name);
  await pipeline(stream, createWriteStream(path));
  return path;
}

export function writeTemp(bytes: Uint8Array, name = 'package.zip'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'portal-package-')), name);
  writeFileSync(path, bytes);
  return path;
}

/** Debian's `unzip`: run it, fail the test on anything but success. */
function unzip(args: string[], encoding: 'utf8' | 'buffer' = 'utf8') {
  const run = spawnSync('unzip', args, { encoding: encoding === 'utf8' ? 'utf8' : 'buffer', maxBuffer: 64 << 20 });
  if (run.error) throw run.error;
  return run;
}

/** The entry names, in archive order (`unzip -Z1`). */
export function zipNames(path: string): string[] {
  const run = unzip(['-Z1', path]);
  if (run.status !== 0) throw new Error(`unzip -Z1 exited ${run.status}: ${String(run.stderr)}`);
  return String(run.stdout).split('\n').filter(Boolean);
}

/** One entry's bytes (`unzip -p`). */
export function zipEntry(path: string, name: string): Buffer {
  const run = unzip(['-p', path, name], 'buffer');
  if (run.status !== 0) throw new Error(`unzip -p ${name} exited ${run.status}: ${String(run.stderr)}`);
  return run.stdout as unknown as Buffer;
}

/** `unzip -tq`: the exit status (0 = every CRC and size checks out) and what it said. */
export function zipTest(path: string): { status: number | null; output: string } {
  const run = unzip(['-tq', path]);
  return { status: run.status, output: `${String(run.stdout)}${String(run.stderr)}` };
}

/** Every `daten/pfad` of an `anhang location="INTERN"`, in document order. */
export function internPaths(xml: string): string[] {
  const paths: string[] = [];
  for (const match of xml.matchAll(/<anhang location="INTERN"[^>]*>[\s\S]*?<pfad>([^<]*)<\/pfad>/g))
    paths.push(match[1]);
  return paths;
}

/** Which INTERN paths are missing from the ZIP or hold other bytes than their name's address. */
export function pathProblems(path: string, xml: string): string[] {
  const names = new Set(zipNames(path));
  const problems: string[] = [];
  for (const pfad of internPaths(xml)) {
    if (!names.has(pfad)) {
      problems.push(`${pfad}: not in the ZIP`);
      continue;
    }
    const address = /^bilder\/([0-9a-f]{64})\.[a-z]+$/.exec(pfad)?.[1];
    if (!address || sha256(zipEntry(path, pfad)) !== address) problems.push(`${pfad}: other bytes`);
  }
  return problems;
}
