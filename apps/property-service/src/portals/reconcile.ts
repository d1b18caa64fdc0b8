import { inTransaction, type Db } from '@platform/db';
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
  return inTransaction(db, async (tx) => {
    const live = new Map<string, string>();
    for (const listing of await listingRepository.liveIdsOnChannel(tx, channel))
      if (!live.has(listing.property_id)) live.set(listing.property_id, listing.id);
    const objects = await portalObjectSql.ofChannel(tx, channel.id);
    const known = new Map(objects.map((object) => [object.property_id, object]));
    const key = { channelId: channel.id, accountId: channel.account_id };
    let changed = false;
    for (const [propertyId, listingId] of live) {
      const object = known.get(propertyId);
      if (object?.action === 'CHANGE' && object.listing_id === listingId) continue;
      await portalObjectSql.wantChange(tx, key, propertyId, listingId, at);
      changed = true;
    }
    for (const object of objects) {
      if (live.has(object.property_id) || object.action === 'DELETE') continue;
      // Never at the portal: nothing to take off it.
      if (object.transferred_at === null) await portalObjectSql.forget(tx, channel.id, object.property_id);
      else await portalObjectSql.wantDelete(tx, channel.id, object.property_id, at);
      changed = true;
    }
    return changed ? portalObjectSql.ofChannel(tx, channel.id) : objects;
  });
}
