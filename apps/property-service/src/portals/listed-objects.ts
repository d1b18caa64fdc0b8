import type { BlobStorage } from '@platform/storage';
import { isPublished, listingRepository, snapshotOf, type ListingSnapshot } from '../listings/index.js';
import type { Db } from '@platform/db';
import type { CarriedObject, PortalObjectRow } from './objects-sql.js';
import { portalImagePath, type PortalItem } from './package.js';

export interface TransferEventData {
  channel_id: string;
  transfer_id: string;
  umfang: 'VOLL' | 'TEIL';
  file_name: string;
  listings: { listing_id: string; property_id: string; aktion: 'CHANGE' | 'DELETE' }[];
}

/** Whether a published medium can travel in the ZIP: a type portals take, its rendition in storage. */
async function sendable(storage: BlobStorage, medium: ListingSnapshot['media'][number]): Promise<boolean> {
  try {
    portalImagePath(medium);
  } catch {
    return false;
  }
  return storage.exists(medium.sha256);
}

/**
 * The listings of the objects a transfer sends, loaded in one query, as the package and the event
 * name them. One listing cannot stop the others: an object whose listing is gone is left out (and
 * failed with the reason), a photo that cannot travel (its rendition missing from storage, a type
 * no portal takes) is left out of its listing.
 */
export async function listedObjects(ctx: { db: Db; storage: BlobStorage }, sent: readonly PortalObjectRow[]) {
  const rows = await listingRepository.manyWithParts(
    ctx.db,
    sent.map((o) => o.listing_id),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const items: PortalItem[] = [];
  const events: TransferEventData['listings'] = [];
  const carried: CarriedObject[] = [];
  const unsendable: CarriedObject[] = [];
  for (const object of sent) {
    const row = byId.get(object.listing_id);
    const key = { propertyId: object.property_id, version: object.version };
    if (!row) {
      unsendable.push(key);
      continue;
    }
    const snapshot = snapshotOf(row);
    const media = [];
    for (const medium of snapshot.media)
      if (!isPublished(medium) || object.action === 'DELETE' || (await sendable(ctx.storage, medium)))
        media.push(medium);
    items.push({
      objectId: object.property_id,
      action: object.action,
      listingId: row.id,
      snapshot: { ...snapshot, media },
    });
    events.push({ listing_id: object.listing_id, property_id: object.property_id, aktion: object.action });
    carried.push(key);
  }
  return { items, events, carried, unsendable, unsendableReason: 'the listing no longer exists' };
}
