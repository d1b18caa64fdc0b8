import { documentJobs, type DocumentKind } from '@platform/documents';
import { eventEmitter } from '@platform/webhooks';
import { PROPERTY_EVENTS } from '../events.js';
import { exposeFiles, RENDER_EXPOSE } from './expose.js';
import { snapshotOf } from './mapping.js';
import { listingRepository } from './repository.js';
import type { ListingSnapshot } from './snapshot.js';

const emit = eventEmitter('property', PROPERTY_EVENTS);

/**
 * The PDF exposé of a listing, rendered from its snapshot only (never from the property as it is
 * now), in the sandbox: its images are the renditions made at upload, read one at a time.
 */
export const listingDocument: DocumentKind<ListingSnapshot> = {
  table: 'listings',
  async load(db, id) {
    const snapshot = snapshotOf(await listingRepository.load(db, id));
    return { data: snapshot, files: exposeFiles(snapshot) };
  },
  renderer: RENDER_EXPOSE,
  async completed(tx, document, at) {
    const row = await listingRepository.eventFields(tx, document.id);
    await emit(tx, {
      accountId: document.account_id,
      type: 'listing.completed',
      data: { listing_id: document.id, property_id: row.property_id, status: 'completed', pdf_url: row.pdf_url },
      at,
    });
  },
};

export const listingJobs = documentJobs(listingDocument, {
  name: 'listing',
  plural: 'listings',
  idField: 'listing_id',
  renders: 'the PDF exposé of a listing',
});
export const GENERATE_LISTING_JOB = listingJobs.generate;
export const SWEEP_LISTINGS_JOB = listingJobs.sweep;
