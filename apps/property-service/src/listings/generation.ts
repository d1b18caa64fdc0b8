import { Readable } from 'node:stream';
import { DocumentRenderError, ImageMetadataError, documentJobs, stripImageMetadata, type DocumentKind } from '@platform/documents';
import { inTransaction, type Db } from '@platform/db';
import { claimBlob, releaseBlob } from '@platform/uploads';
import type { BlobStorage } from '@platform/storage';
import { eventEmitter } from '@platform/webhooks';
import { PROPERTY_EVENTS } from '../events.js';
import { renderExpose } from './expose.js';
import { snapshotOf } from './mapping.js';
import { LISTING_PARTS } from './repository.js';

const emit = eventEmitter('property', PROPERTY_EVENTS);

async function readBlob(storage: BlobStorage, sha256: string): Promise<Buffer | null> {
  const content = await storage.get(sha256);
  if (!content) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of content.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const PUBLISHED_IMAGE_KINDS = new Set(['photo', 'floor_plan']);

/**
 * The listing's photos and floor plans are published (in the exposé and on feeds): each is
 * replaced by a copy without metadata (EXIF GPS would reveal the exact address of a property
 * shown at `neighborhood` precision), EXIF orientation kept. Stripping is idempotent, so a rerun
 * changes nothing; the original stays with the property's media, readable with a key only.
 */
async function publishableImages(db: Db, storage: BlobStorage, listingId: string): Promise<void> {
  const media = await db.listingMedia.findMany({ where: { listing_id: listingId } });
  for (const medium of media) {
    if (!PUBLISHED_IMAGE_KINDS.has(medium.kind)) continue;
    const original = await readBlob(storage, medium.sha256);
    if (!original) continue; // the exposé leaves a missing image out
    let stripped: Buffer;
    try {
      stripped = stripImageMetadata(original, medium.content_type);
    } catch (error) {
      if (!(error instanceof ImageMetadataError)) throw error;
      throw new DocumentRenderError(`The ${medium.kind.replace('_', ' ')} at position ${medium.position} cannot be published: its file structure is damaged. Replace it and generate a new listing.`);
    }
    if (stripped.equals(original)) continue;
    const stored = await storage.put(Readable.from([stripped]));
    await inTransaction(db, async (tx) => {
      await claimBlob(tx, storage, stored.key);
      await tx.listingMedia.update({ where: { id: medium.id }, data: { sha256: stored.sha256, size: stored.size } });
      await releaseBlob(tx, storage, medium.sha256); // only if nothing else uses the original
    });
  }
}

/** The PDF exposé of a listing, rendered from its snapshot only (never from the property as it is now). */
export const listingDocument: DocumentKind = {
  table: 'listings',
  async render(db, storage, id) {
    await publishableImages(db, storage, id);
    const row = await db.listing.findUniqueOrThrow({ where: { id }, include: LISTING_PARTS });
    return renderExpose(snapshotOf(row), (sha256) => readBlob(storage, sha256));
  },
  async completed(tx, document, at) {
    const row = await tx.listing.findUniqueOrThrow({ where: { id: document.id }, select: { property_id: true, pdf_url: true } });
    await emit(tx, {
      accountId: document.account_id,
      type: 'listing.completed',
      data: { listing_id: document.id, property_id: row.property_id, status: 'completed', pdf_url: row.pdf_url },
      at,
    });
  },
};

export const listingJobs = documentJobs(listingDocument, { name: 'listing', plural: 'listings', idField: 'listing_id', renders: 'the PDF exposé of a listing' });
export const GENERATE_LISTING_JOB = listingJobs.generate;
export const SWEEP_LISTINGS_JOB = listingJobs.sweep;
