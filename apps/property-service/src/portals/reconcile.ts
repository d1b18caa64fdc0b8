import type { Db } from '@platform/db';
import { listingRepository } from '../listings/index.js';
import { portalObjectSql, type PortalObjectRow } from './objects-sql.js';

export interface PortalChannel {
  id: string;
  account_id: string;
}

/**
 * Brings what the portal should hold in line with what is live on the channel: the listings'
 * publications are the truth, so a publication, a newer listing of a property, a withdrawal and an
 * archived property all reach the portal the same way, whoever changed them. Per property the
 * newest published listing is the one the portal shows. Returns the objects after the change.
 */
export async function reconcileObjects(db: Db, channel: PortalChannel, at: Date): Promise<PortalObjectRow[]> {
  // No transaction around it: every step is a whole change of one object, a run holds the channel's
  // lease, and the next run finishes what a broken one left (a first reconcile of thousands of
  // listings would outlast an interactive transaction's time limit).
  const live = new Map<string, string>();
  for (const listing of await listingRepository.liveIdsOnChannel(db, channel))
    if (!live.has(listing.property_id)) live.set(listing.property_id, listing.id);
  const objects = await portalObjectSql.ofChannel(db, channel.id);
  const known = new Map(objects.map((object) => [object.property_id, object]));
  const key = { channelId: channel.id, accountId: channel.account_id };
  let changed = false;
  for (const [propertyId, listingId] of live) {
    const object = known.get(propertyId);
    if (object?.action === 'CHANGE' && object.listing_id === listingId) continue;
    await portalObjectSql.wantChange(db, key, propertyId, listingId, at);
    changed = true;
  }
  for (const object of objects) {
    if (live.has(object.property_id) || object.action === 'DELETE') continue;
    // Never sent to the portal (not even in a failed transfer, which may have landed): nothing to take off it.
    if (object.transferred_at === null && object.last_transfer_id === null)
      await portalObjectSql.forget(db, channel.id, object.property_id);
    else await portalObjectSql.wantDelete(db, channel.id, object.property_id, at);
    changed = true;
  }
  return changed ? portalObjectSql.ofChannel(db, channel.id) : objects;
}
