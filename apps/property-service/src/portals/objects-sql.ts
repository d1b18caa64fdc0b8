import type { Db, Prisma } from '@platform/db';

export type PortalObjectRow = Prisma.PortalObjectGetPayload<object>;

/** What a transfer carried of one object: marked transferred only if it is still that version. */
export interface CarriedObject {
  propertyId: string;
  version: number;
}

/** What each portal should hold per property: the only place `portal_objects` is queried. */
export const portalObjectSql = {
  ofChannel(db: Db, channelId: string): Promise<PortalObjectRow[]> {
    return db.portalObject.findMany({ where: { channel_id: channelId }, orderBy: { property_id: 'asc' } });
  },

  /** The property's listing `listingId` should be at the portal (`CHANGE`), not yet transferred. */
  async wantChange(
    db: Db,
    key: { channelId: string; accountId: string },
    propertyId: string,
    listingId: string,
    at: Date,
  ) {
    await db.portalObject.upsert({
      where: { channel_id_property_id: { channel_id: key.channelId, property_id: propertyId } },
      create: {
        channel_id: key.channelId,
        account_id: key.accountId,
        property_id: propertyId,
        listing_id: listingId,
        action: 'CHANGE',
        state: 'pending',
        updated_at: at,
      },
      update: {
        listing_id: listingId,
        action: 'CHANGE',
        state: 'pending',
        reason: null,
        version: { increment: 1 },
        updated_at: at,
      },
    });
  },

  /** The property should be gone from the portal (`DELETE`), not yet transferred. */
  async wantDelete(db: Db, channelId: string, propertyId: string, at: Date) {
    await db.portalObject.update({
      where: { channel_id_property_id: { channel_id: channelId, property_id: propertyId } },
      data: { action: 'DELETE', state: 'pending', reason: null, version: { increment: 1 }, updated_at: at },
    });
  },

  /** Never at the portal and not wanted there any more: nothing to delete. */
  async forget(db: Db, channelId: string, propertyId: string) {
    await db.portalObject.delete({
      where: { channel_id_property_id: { channel_id: channelId, property_id: propertyId } },
    });
  },

  /** The objects a transfer carried are at the portal now (those changed meanwhile stay pending). */
  async transferred(db: Db, channelId: string, carried: readonly CarriedObject[], transferId: string, at: Date) {
    for (const { propertyId, version } of carried)
      await db.portalObject.updateMany({
        where: { channel_id: channelId, property_id: propertyId, version },
        data: { state: 'transferred', reason: null, last_transfer_id: transferId, transferred_at: at, updated_at: at },
      });
  },

  /** A failed transfer: the objects it carried say why (`failed` once it is given up, else still pending). */
  async failed(
    db: Db,
    channelId: string,
    carried: readonly CarriedObject[],
    reason: string,
    givenUp: boolean,
    at: Date,
  ) {
    for (const { propertyId, version } of carried)
      await db.portalObject.updateMany({
        where: { channel_id: channelId, property_id: propertyId, version },
        data: { state: givenUp ? 'failed' : 'pending', reason, updated_at: at },
      });
  },

  /** The objects of one listing on every portal channel of the account (a listing's transfer state). */
  ofListing(db: Db, accountId: string, listingId: string): Promise<PortalObjectRow[]> {
    return db.portalObject.findMany({ where: { account_id: accountId, listing_id: listingId } });
  },
};
