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

  /**
   * A failed transfer: the objects it carried say why (`failed` once it is given up, else still
   * pending). The transfer is kept on them: a file that failed may still have reached the portal.
   */
  async failed(
    db: Db,
    channelId: string,
    carried: readonly CarriedObject[],
    failure: { reason: string; givenUp: boolean; transferId: string },
    at: Date,
  ) {
    for (const { propertyId, version } of carried)
      await db.portalObject.updateMany({
        where: { channel_id: channelId, property_id: propertyId, version },
        data: {
          state: failure.givenUp ? 'failed' : 'pending',
          reason: failure.reason,
          last_transfer_id: failure.transferId,
          updated_at: at,
        },
      });
  },

  /** Objects that cannot be sent (their listing is gone): failed with the reason, the rest goes on. */
  async unsendable(db: Db, channelId: string, objects: readonly CarriedObject[], reason: string, at: Date) {
    for (const { propertyId, version } of objects)
      await db.portalObject.updateMany({
        where: { channel_id: channelId, property_id: propertyId, version },
        data: { state: 'failed', reason, updated_at: at },
      });
  },

  /** How many properties the portal may still hold from this channel (sent, and not taken off since). */
  stillHeld(db: Db, channelId: string): Promise<number> {
    return db.portalObject.count({
      where: {
        channel_id: channelId,
        OR: [
          { action: 'CHANGE', last_transfer_id: { not: null } },
          { action: 'DELETE', state: { not: 'transferred' } },
        ],
      },
    });
  },
};
