import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from 'fflate';
import type { AgencyContact } from '../channels/index.js';
import type { ListingMediaSnapshot, ListingSnapshot } from '../listings/index.js';
// publication/index.ts does not export the document builder yet (the report asks for it).
import { mediaGroups, openImmoDocument, type OpenImmoAction } from '../publication/index.js';

/*
 * The transfer package a portal's (S)FTP import account takes: one ZIP holding `openimmo.xml`
 * first and then every image it names, each attachment `location="INTERN"` with `daten/pfad` its
 * path inside the ZIP (`bilder/<sha256>.<ext>`). Only published renditions go (mediaGroups picks
 * them: never a document, never the tenant's original); a DELETE item carries no image; an image
 * two listings share is in the ZIP once.
 *
 * The ZIP is streamed: the XML deflated, each image stored as it is (a JPEG does not shrink), read
 * from storage one at a time and checked against its content address on the way. Nothing holds
 * more than the XML and one chunk of one image, whatever the number of photos.
 */

export interface PortalItem {
  /** The object's id at the portal (`objektnr_extern`, `openimmo_obid`): stable across transfers. */
  objectId: string;
  action: OpenImmoAction;
  listingId: string;
  snapshot: ListingSnapshot;
}

export interface PortalPackageInput {
  anbieternr: string;
  firma: string;
  contact: AgencyContact;
  /** RFC 3339: the transfer's `timestamp`, every item's `stand_vom` and the ZIP entries' time. */
  generatedAt: string;
  umfang: 'VOLL' | 'TEIL';
  items: readonly PortalItem[];
  /** The bytes of a stored rendition by content address. */
  readBlob: (sha256: string) => Promise<NodeJS.ReadableStream | Buffer>;
}

/** The name of the OpenImmo document inside the ZIP. */
export const PORTAL_XML_NAME = 'openimmo.xml';

/** A ZIP without ZIP64 (fflate writes none) addresses 4 GiB and 65,535 entries. */
const ZIP_MAX_BYTES = 0xffff_ffff;
const ZIP_MAX_ENTRIES = 0xffff;

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** Where an image lies in the ZIP: `bilder/<sha256>.<ext>`; an address that is not a sha256 never becomes a path. */
export function portalImagePath(medium: Pick<ListingMediaSnapshot, 'sha256' | 'content_type'>): string {
  if (!/^[0-9a-f]{64}$/.test(medium.sha256))
    throw new TypeError(`not a content address: ${JSON.stringify(medium.sha256)}`);
  const ext = EXTENSIONS[medium.content_type.toLowerCase()];
  if (!ext) throw new TypeError(`no image type a portal takes: ${JSON.stringify(medium.content_type)}`);
  return `bilder/${medium.sha256}.${ext}`;
}

/** The XML alone (for tests and for the size check). */
export function portalXml(input: Omit<PortalPackageInput, 'readBlob'>): string {
  return openImmoDocument({
    anbieterId: input.anbieternr,
    firma: input.firma,
    contact: input.contact,
    generatedAt: input.generatedAt,
    umfang: input.umfang,
    listings: input.items.map((item) => ({
      listingId: item.listingId,
      objectId: item.objectId,
      action: item.action,
      snapshot: item.snapshot,
      mediaPath: portalImagePath,
    })),
  });
}

/** The image paths of the package: `bilder/<sha256>.<ext from content_type>`, each once even when listings share it. */
export function portalFiles(items: readonly PortalItem[]): { path: string; sha256: string }[] {
  const files = new Map<string, string>();
  for (const item of items) {
    if (item.action === 'DELETE') continue;
    for (const { medium } of mediaGroups(item.snapshot.media)) files.set(portalImagePath(medium), medium.sha256);
  }
  return [...files].map(([path, sha256]) => ({ path, sha256 }));
}

/**
 * A fresh stream of the ZIP each call (a retry re-reads): openimmo.xml first, then each image once,
 * streamed from readBlob, one image in flight at a time. The XML is built (and bad input refused)
 * when called; the stream fails when a blob cannot be read or its bytes do not match its address.
 */
export function portalPackage(input: PortalPackageInput): NodeJS.ReadableStream {
  const xml = strToU8(portalXml(input));
  const files = portalFiles(input.items);
  if (files.length + 1 > ZIP_MAX_ENTRIES) throw new RangeError(`a package holds at most ${ZIP_MAX_ENTRIES - 1} images`);
  const mtime = new Date(input.generatedAt);
  // A ZIP entry's time is an MS-DOS date: 1980 to 2099.
  if (!(mtime.getFullYear() >= 1980 && mtime.getFullYear() <= 2099))
    throw new RangeError(`a ZIP cannot date an entry at ${JSON.stringify(input.generatedAt)}`);
  return Readable.from(zipChunks(xml, files, mtime, input.readBlob), { objectMode: false });
}

async function* zipChunks(
  xml: Uint8Array,
  files: readonly { path: string; sha256: string }[],
  mtime: Date,
  readBlob: PortalPackageInput['readBlob'],
): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  let written = 0;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  // What the archive made of the last push, in order; fails as soon as fflate or the size limit does.
  function* drain(): Generator<Uint8Array> {
    if (failure) throw failure;
    for (const chunk of ready.splice(0)) {
      written += chunk.length;
      if (written > ZIP_MAX_BYTES)
        throw new RangeError('the package passes 4 GiB, more than a ZIP without ZIP64 addresses');
      yield chunk;
    }
  }

  const document = new ZipDeflate(PORTAL_XML_NAME, { level: 6 });
  document.mtime = mtime;
  zip.add(document);
  document.push(xml, true);
  yield* drain();

  for (const file of files) {
    const entry = new ZipPassThrough(file.path);
    entry.mtime = mtime;
    zip.add(entry);
    const hash = createHash('sha256');
    const source = await readBlob(file.sha256);
    for await (const chunk of Buffer.isBuffer(source) ? [source] : source) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      hash.update(bytes);
      entry.push(bytes);
      yield* drain();
    }
    if (hash.digest('hex') !== file.sha256)
      throw new Error(`the stored bytes of ${file.path} do not match their address`);
    entry.push(new Uint8Array(0), true);
    yield* drain();
  }

  zip.end();
  yield* drain();
}
