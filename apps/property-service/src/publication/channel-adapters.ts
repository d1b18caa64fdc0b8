import type { AgencyContact, ChannelType } from '../channels/index.js';
import { ISO_ALPHA3, marketing, openImmoDocument } from './openimmo.js';
import { isPublished, publicAddress, type ListingSnapshot } from '../listings/index.js';

/** A listing live on a channel, as its feed shows it. */
export interface LiveListing {
  id: string;
  snapshot: ListingSnapshot;
}

export interface FeedContext {
  /** The feed's public base, `PUBLIC_BASE_URL/public/v1/feeds/{token}`: media and PDFs are linked below it. */
  feedBase: string;
  accountId: string;
  /** The agency's name (OpenImmo `firma`). */
  accountName: string;
  /** The channel's agency contact (OpenImmo `kontaktperson`); an openimmo channel refuses to publish without one. */
  contact: AgencyContact | null;
  generatedAt: string;
}

/**
 * What a channel does with a listing. Both built-in channels are feeds that their consumers pull,
 * so publishing is a check and the feed is built from the live listings when read; a channel that
 * pushes to a portal would be one more adapter (and a job) of the same shape.
 */
export interface ChannelAdapter {
  /** Why the listing cannot go live on this channel (its publication fails with this reason), or null. */
  refuses(snapshot: ListingSnapshot): string | null;
  contentType: string;
  /** The channel's feed: every live listing. */
  feed(listings: LiveListing[], context: FeedContext): string;
  /** One live listing alone. */
  item(listing: LiveListing, context: FeedContext): string;
}

const mediaUrl = (context: FeedContext, sha256: string) => `${context.feedBase}/media/${sha256}`;

/** The website's view of a listing: what an ad shows, the address at its precision, nothing personal (no commission note). */
function websiteListing(listing: LiveListing, context: FeedContext) {
  const p = listing.snapshot.property;
  const kind = marketing(p);
  return {
    id: listing.id,
    title: p.title,
    type: p.type,
    marketing: kind === 'KAUF' ? 'sale' : kind === 'MIETE_PACHT' ? 'rent' : null,
    address: publicAddress(p.address),
    description: p.description,
    living_area_sqm: p.living_area_sqm,
    lot_size_sqm: p.lot_size_sqm,
    rooms: p.rooms,
    floor: p.floor,
    year_built: p.year_built,
    available_from: p.available_from,
    purchase_price_eur: p.purchase_price_eur,
    cold_rent_eur: p.cold_rent_eur,
    service_charges_eur: p.service_charges_eur,
    buyer_commission_percent: p.commission?.buyer_percent ?? null,
    energy_certificate: p.energy_certificate,
    media: listing.snapshot.media.filter(isPublished).map((m) => ({
      kind: m.kind,
      title: m.title,
      content_type: m.content_type,
      width: m.width,
      height: m.height,
      url: mediaUrl(context, m.sha256),
      thumbnail_url: m.thumbnail ? mediaUrl(context, m.thumbnail.sha256) : null,
    })),
    expose_url: `${context.feedBase}/listings/${listing.id}/pdf`,
  };
}

export const websiteAdapter: ChannelAdapter = {
  refuses: () => null,
  contentType: 'application/json; charset=utf-8',
  feed: (listings, context) =>
    JSON.stringify({ generated_at: context.generatedAt, listings: listings.map((l) => websiteListing(l, context)) }),
  item: (listing, context) => JSON.stringify(websiteListing(listing, context)),
};

export const openImmoAdapter: ChannelAdapter = {
  refuses(snapshot) {
    const p = snapshot.property;
    if (marketing(p) === null) return 'OpenImmo needs a purchase price or a cold rent (vermarktungsart).';
    if (!ISO_ALPHA3[p.address.country])
      return `OpenImmo needs a country it can name; ${p.address.country} is not one of ${Object.keys(ISO_ALPHA3).join(', ')}.`;
    return null;
  },
  contentType: 'application/xml; charset=utf-8',
  feed: (listings, context) => openImmoDocument(document(listings, context)),
  item: (listing, context) => openImmoDocument(document([listing], context)),
};

function document(listings: LiveListing[], context: FeedContext) {
  return {
    anbieterId: context.accountId,
    firma: context.accountName,
    contact: context.contact,
    generatedAt: context.generatedAt,
    // Publishing needs the contact; a channel that lost it (or went live before it was asked for)
    // offers nothing rather than a document a portal's import refuses.
    listings: (context.contact ? listings : []).map((l) => ({
      listingId: l.id,
      snapshot: l.snapshot,
      mediaUrl: (m: { sha256: string }) => mediaUrl(context, m.sha256),
    })),
  };
}

export const CHANNEL_ADAPTERS: Record<ChannelType, ChannelAdapter> = {
  website: websiteAdapter,
  openimmo: openImmoAdapter,
  // A portal channel pushes the same OpenImmo listings (portals/); its feed can be pulled as well.
  portal: openImmoAdapter,
};

/** Why a listing cannot go live on a channel of this type (its adapter's check), or null: what the app passes to listings/ for publishing. */
export const publicationRefusal = (type: ChannelType, snapshot: ListingSnapshot): string | null =>
  CHANNEL_ADAPTERS[type].refuses(snapshot);
