import type { Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';

export type ListingRow = Prisma.ListingGetPayload<object>;
export type ListingWithParts = Prisma.ListingGetPayload<{ include: typeof LISTING_PARTS }>;

/** Channels in the order they were created (ids break ties of the same millisecond). */
export const PUBLICATION_ORDER: Prisma.ListingPublicationOrderByWithRelationInput[] = [
  { channel: { created_at: 'asc' } },
  { channel_id: 'asc' },
];

/** What a listing's view needs besides its row: the media as they were and where it is published. */
export const LISTING_PARTS = {
  media: { orderBy: { position: 'asc' } },
  publications: { include: { channel: true }, orderBy: PUBLICATION_ORDER },
} as const satisfies Prisma.ListingInclude;

export const listingRepository = tenantRepository<ListingRow, Prisma.ListingUncheckedUpdateInput>({
  table: 'listings',
  list: 'listings',
  model: (db) => db.listing,
  notFound: () => notFound('No listing with this id.'),
});
