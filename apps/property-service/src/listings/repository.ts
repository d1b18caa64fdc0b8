import type { Db, Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';

export type ListingRow = Prisma.ListingGetPayload<object>;
export type ListingWithParts = Prisma.ListingGetPayload<{ include: typeof LISTING_PARTS }>;

/**
 * What a listing's view needs besides its row: the media as they were and where it is published.
 * The channels of the publications are channels/' rows: the service asks channels for them, all at
 * once, and puts the publications in the channels' order.
 */
export const LISTING_PARTS = {
  media: { orderBy: { position: 'asc' } },
  publications: { orderBy: { channel_id: 'asc' } },
} as const satisfies Prisma.ListingInclude;

/** A publication's states in which the listing is (or is about to be) shown: withdrawing ends them. */
const NOT_WITHDRAWN: ('pending' | 'live' | 'failed')[] = ['pending', 'live', 'failed'];

/** Where a listing is live on a channel (the feeds read these). */
const liveOn = (channelId: string) => ({ some: { channel_id: channelId, state: 'live' as const } });

export interface NewListing {
  id: string;
  accountId: string;
  propertyId: string;
  snapshot: object;
  pdfUrl: string;
  media: Omit<Prisma.ListingMediaUncheckedCreateWithoutListingInput, 'account_id'>[];
  at: Date;
}

export interface PublicationState {
  state: 'live' | 'failed';
  reason: string | null;
  live_at: Date | null;
  withdrawn_at: null;
  updated_at: Date;
}

/** Listings, their copied media and their publications on channels: the only place these tables are queried. */
export const listingRepository = {
  ...tenantRepository<ListingRow, Prisma.ListingUncheckedUpdateInput>({
    table: 'listings',
    list: 'listings',
    model: (db) => db.listing,
    notFound: () => notFound('No listing with this id.'),
  }),

  /** A listing with its media and publications (it exists: read after a lock or an insert). */
  load(db: Db, id: string): Promise<ListingWithParts> {
    return db.listing.findUniqueOrThrow({ where: { id }, include: LISTING_PARTS });
  },

  /** The account's listing with its media and publications, or null. */
  findWithParts(db: Db, accountId: string, id: string): Promise<ListingWithParts | null> {
    return db.listing.findFirst({ where: { id, account_id: accountId }, include: LISTING_PARTS });
  },

  /** The listings of the given ids with their media and publications (in no particular order). */
  manyWithParts(db: Db, ids: readonly string[]): Promise<ListingWithParts[]> {
    return db.listing.findMany({ where: { id: { in: [...ids] } }, include: LISTING_PARTS });
  },

  /** What a completed exposé's event names. */
  eventFields(db: Db, id: string): Promise<{ property_id: string; pdf_url: string }> {
    return db.listing.findUniqueOrThrow({ where: { id }, select: { property_id: true, pdf_url: true } });
  },

  /** Records a new listing (`generating`) with its copy of the property's media. */
  async insert(tx: Db, listing: NewListing): Promise<void> {
    await tx.listing.create({
      data: {
        id: listing.id,
        account_id: listing.accountId,
        property_id: listing.propertyId,
        snapshot: listing.snapshot,
        pdf_url: listing.pdfUrl,
        created_at: listing.at,
        updated_at: listing.at,
        media: { create: listing.media.map((m) => ({ ...m, account_id: listing.accountId })) },
      },
    });
  },

  /** The ids of a property's published listings. */
  async publishedOfProperty(tx: Db, accountId: string, propertyId: string): Promise<string[]> {
    const rows = await tx.listing.findMany({
      where: { account_id: accountId, property_id: propertyId, status: 'published' },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  },

  /** The account's listings live on a channel (one listing with `listingId`), newest publication first. */
  liveOnChannel(db: Db, channel: { id: string; account_id: string }, listingId?: string): Promise<ListingWithParts[]> {
    return db.listing.findMany({
      where: {
        account_id: channel.account_id,
        ...(listingId ? { id: listingId } : {}),
        publications: liveOn(channel.id),
      },
      include: LISTING_PARTS,
      orderBy: [{ published_at: 'desc' }, { id: 'desc' }],
    });
  },

  /**
   * The ids of the account's listings live on a channel, with their properties, newest publication
   * first: what a portal transfer compares with what the portal holds, before loading any listing.
   */
  async liveIdsOnChannel(db: Db, channel: { id: string; account_id: string }) {
    return db.listing.findMany({
      where: { account_id: channel.account_id, publications: liveOn(channel.id) },
      select: { id: true, property_id: true },
      orderBy: [{ published_at: 'desc' }, { id: 'desc' }],
    });
  },

  /** The PDF's content address of a listing live on the channel (null before it is rendered), or null. */
  livePdf(db: Db, channel: { id: string; account_id: string }, listingId: string) {
    return db.listing.findFirst({
      where: { id: listingId, account_id: channel.account_id, publications: liveOn(channel.id) },
      select: { sha256: true },
    });
  },

  /** A copied medium of one of the listings live on the channel, by content address, among the given variants. */
  liveMedium(db: Db, channel: { id: string; account_id: string }, sha256: string, variants: readonly string[]) {
    return db.listingMedia.findFirst({
      where: {
        sha256,
        variant: { in: [...variants] },
        listing: { account_id: channel.account_id, publications: liveOn(channel.id) },
      },
      select: { content_type: true, sha256: true, position: true },
    });
  },

  /** Sets the listing's publication on a channel (created on first publication). */
  async setPublication(tx: Db, accountId: string, listingId: string, channelId: string, data: PublicationState) {
    await tx.listingPublication.upsert({
      where: { listing_id_channel_id: { listing_id: listingId, channel_id: channelId } },
      create: { listing_id: listingId, channel_id: channelId, account_id: accountId, ...data },
      update: data,
    });
  },

  /** Withdraws the listing's publications (only on the given channels, when given). */
  async withdrawPublications(tx: Db, listingId: string, at: Date, channelIds?: readonly string[]): Promise<void> {
    await tx.listingPublication.updateMany({
      where: {
        listing_id: listingId,
        state: { in: NOT_WITHDRAWN },
        ...(channelIds ? { channel_id: { in: [...channelIds] } } : {}),
      },
      data: { state: 'withdrawn', withdrawn_at: at, updated_at: at },
    });
  },

  /** How many channels the listing is live on. */
  liveCount(tx: Db, listingId: string): Promise<number> {
    return tx.listingPublication.count({ where: { listing_id: listingId, state: 'live' } });
  },

  /** How many listings are live on each of the given channels. */
  async liveCountsByChannel(db: Db, channelIds: readonly string[]): Promise<Map<string, number>> {
    if (channelIds.length === 0) return new Map();
    const rows = await db.listingPublication.groupBy({
      by: ['channel_id'],
      where: { channel_id: { in: [...channelIds] }, state: 'live' },
      _count: { _all: true },
    });
    return new Map(rows.map((row) => [row.channel_id, row._count._all]));
  },
};
