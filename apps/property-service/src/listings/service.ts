import {
  assertPublishable as assertDocumentPublishable,
  markPublished,
  markWithdrawn,
  requestGeneration,
  storedFile,
} from '@platform/documents';
import { inTransaction, newId, type Db } from '@platform/db';
import { ApiError, type ErrorDetail } from '@platform/http';
import type { ApiContext } from '@platform/service';
import type { FastifyBaseLogger } from 'fastify';
import { channelRepository, contactOf, type ChannelRow, type ChannelType } from '../channels/index.js';
import type { PropertyEvents } from '../events.js';
import { mediaRepository } from '../media/index.js';
import { propertyRepository, toProperty } from '../properties/index.js';
import { assertPublishable as assertEnergyRule } from './energy-rule.js';
import { listingJobs } from './generation.js';
import { assertCommissionPublishable } from '../commission/index.js';
import { snapshotOf, toListing, type StoredSnapshot } from './mapping.js';
import { listingRepository, type ListingWithParts } from './repository.js';
import type { Listing, PublishBody, WithdrawBody } from './schemas.js';
import type { ListingSnapshot } from './snapshot.js';

/**
 * Why a listing cannot go live on a channel of this type (its publication fails with this reason),
 * or null: the channel adapters' check (publication/), passed in by the app, so that listings
 * imports nothing of publication (which builds the feeds from the listings).
 */
export type PublicationRefusal = (type: ChannelType, snapshot: ListingSnapshot) => string | null;

/**
 * After a publication or withdrawal committed: the channels it touched (a portal channel's
 * transfer is started by the app; listings import nothing of portals, which read the listings).
 */
export type PublicationsChanged = (channels: readonly Pick<ChannelRow, 'id' | 'type'>[]) => Promise<void>;

export type ListingServiceDeps = Pick<
  ApiContext<PropertyEvents>,
  'db' | 'cursors' | 'now' | 'emit' | 'jobs' | 'publicBaseUrl'
> & { refuses: PublicationRefusal; publicationsChanged?: PublicationsChanged };
export type ListingService = ReturnType<typeof createListingService>;

export interface ListingFilter {
  property_id?: string;
  status?: Listing['status'];
  limit: number;
  cursor?: string;
}

/** The day a certificate's `valid_until` is compared with (UTC). */
const today = (at: Date) => at.toISOString().slice(0, 10);

/**
 * What a listing copies of the property's media: the renditions of its photos and floor plans, one
 * row per medium and variant. Documents are never published; a medium without renditions (stored
 * before they were made, and not yet made by the backfill job) is left out.
 */
async function publishedMedia(tx: Db, propertyId: string) {
  const media = await mediaRepository.publishableOf(tx, propertyId);
  const renditions = await mediaRepository.renditionsOf(
    tx,
    media.map((m) => m.id),
  );
  return media.flatMap((m) =>
    (renditions.get(m.id) ?? []).map((r) => ({
      position: m.position,
      variant: r.variant,
      media_id: m.id,
      kind: m.kind,
      title: m.title,
      content_type: r.content_type,
      size: r.size,
      sha256: r.sha256,
      width: r.width,
      height: r.height,
    })),
  );
}

/** An exposé needs a cover photo and a price on its title page. */
function titlePageProblems(
  property: { purchase_price_eur: number | null; cold_rent_eur: number | null },
  photos: number,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (photos === 0) details.push({ field: 'media', reason: 'missing' });
  if (property.purchase_price_eur === null && property.cold_rent_eur === null)
    details.push({ field: 'purchase_price_eur', reason: 'missing' });
  return details;
}

/**
 * A portal refuses an OpenImmo listing without a contact (`kontaktperson`): publishing to an
 * openimmo channel that has none is a 422 naming the channel's missing setting.
 */
function assertChannelsReady(ids: readonly string[], channels: readonly ChannelRow[]): void {
  const lacking = ids.flatMap((channelId, i) => {
    const channel = channels.find((c) => c.id === channelId);
    return channel && channel.type !== 'website' && !contactOf(channel) ? [{ channel, i }] : [];
  });
  if (lacking.length === 0) return;
  const names = lacking.map(({ channel }) => `"${channel.name}"`).join(', ');
  throw new ApiError('validation_failed', {
    message: `The OpenImmo channel ${names} has no agency contact, which portals require with every listing (kontaktperson): set the channel's \`contact\` (name and an e-mail or phone) with PATCH /v1/channels/{id}.`,
    details: lacking.map(({ i }) => ({ field: `channels.${i}.contact`, reason: 'missing' as const })),
  });
}

/**
 * The views of the account's listings: the channels of all their publications asked of channels/
 * in one query (none when nothing is published), which also gives the publications' order.
 */
async function viewsOf(db: Db, accountId: string, rows: readonly ListingWithParts[]): Promise<Listing[]> {
  const ids = [...new Set(rows.flatMap((row) => row.publications.map((p) => p.channel_id)))];
  const channels = ids.length === 0 ? [] : await channelRepository.ofAccount(db, accountId, ids);
  return rows.map((row) => toListing(row, channels));
}

async function viewOf(db: Db, accountId: string, row: ListingWithParts): Promise<Listing> {
  const [view] = await viewsOf(db, accountId, [row]);
  return view!;
}

/**
 * Takes the listings of a property off every channel (its property was archived): inside the
 * archiving transaction.
 */
export async function withdrawListingsOfProperty(
  tx: Db,
  accountId: string,
  propertyId: string,
  at: Date,
): Promise<void> {
  for (const id of await listingRepository.publishedOfProperty(tx, accountId, propertyId)) {
    await listingRepository.withdrawPublications(tx, id, at);
    await markWithdrawn(tx, 'listings', id, at);
  }
}

/** Listings: a snapshot of a property, its PDF exposé (generated by the worker) and its publication on channels. */
export function createListingService(deps: ListingServiceDeps) {
  const { db, cursors, now, emit, jobs, publicBaseUrl, refuses } = deps;
  const publicationsChanged = deps.publicationsChanged ?? (async () => {});
  return {
    /** Copies the property and its media into a new listing (`generating`) and enqueues the exposé. */
    async create(accountId: string, propertyId: string, log: FastifyBaseLogger): Promise<Listing> {
      const at = now();
      const id = newId('lst', at.getTime());
      const listing = await inTransaction(db, async (tx) => {
        // Shared lock: the property and its media cannot change while they are copied.
        const property = await propertyRepository.lock(tx, accountId, propertyId, 'share');
        if (property.status === 'archived')
          throw new ApiError('conflict', { message: 'An archived property gets no new listings; restore it first.' });
        const media = await publishedMedia(tx, propertyId);
        const problems = titlePageProblems(
          property,
          new Set(media.filter((m) => m.kind === 'photo').map((m) => m.media_id)).size,
        );
        if (problems.length > 0)
          throw new ApiError('validation_failed', {
            message: "The exposé's title page needs a photo and a price.",
            details: problems,
          });
        const {
          status: _status,
          transaction: _transaction,
          media_count: _count,
          created_at: _created,
          updated_at: _updated,
          ...snapshot
        } = toProperty(property);
        const stored: StoredSnapshot = { property: snapshot, taken_at: at.toISOString() };
        await listingRepository.insert(tx, {
          id,
          accountId,
          propertyId,
          snapshot: stored as object,
          pdfUrl: `${publicBaseUrl}/v1/listings/${id}/pdf`,
          media: media.map((m) => ({ ...m, id: newId('lmed', at.getTime()) })),
          at,
        });
        return listingRepository.load(tx, id);
      });
      await requestGeneration(
        () => listingJobs.enqueue(jobs, id),
        (error) => log.warn({ err: error, listing_id: id }, 'listing generation not enqueued; the sweeper will'),
      );
      return viewOf(db, accountId, listing);
    },

    async get(accountId: string, id: string): Promise<Listing> {
      const row = await listingRepository.findWithParts(db, accountId, id);
      if (!row) throw listingRepository.notFound();
      return viewOf(db, accountId, row);
    },

    async list(accountId: string, { property_id, status, limit, cursor }: ListingFilter) {
      const page = await listingRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { property_id, status },
        map: (row) => row.id,
      });
      const rows = await listingRepository.manyWithParts(db, page.data);
      const byId = new Map(rows.map((row) => [row.id, row]));
      const data = await viewsOf(
        db,
        accountId,
        page.data.map((rowId) => byId.get(rowId)!),
      );
      return { ...page, data };
    },

    /** The stored PDF's address (404 until the listing is completed). */
    async pdf(accountId: string, id: string): Promise<{ sha256: string }> {
      const row = await listingRepository.find(db, accountId, id);
      return { sha256: storedFile(row, "The listing's PDF") };
    },

    /**
     * Checks the energy-certificate rule on the snapshot, then publishes on each channel: live, or
     * failed with the channel's reason. `listing.published` when it went live on a channel it was not live on.
     */
    async publish(accountId: string, id: string, body: PublishBody): Promise<Listing> {
      const at = now();
      let touched: ChannelRow[] = [];
      const published = await inTransaction(db, async (tx) => {
        // The property first, then the listing: the order of archiving, which withdraws the
        // property's listings under its row lock. A listing of an archived property stays off.
        const { property_id: propertyId } = await listingRepository.find(tx, accountId, id);
        const property = await propertyRepository.lock(tx, accountId, propertyId, 'share');
        if (property.status === 'archived')
          throw new ApiError('conflict', {
            message: "The listing's property is archived; restore it and generate a new listing.",
          });
        const row = await listingRepository.lock(tx, accountId, id);
        assertDocumentPublishable(row.status, 'listing');
        const channels = await channelRepository.ofAccount(tx, accountId, body.channels);
        const unknown = body.channels.flatMap((channelId, i) =>
          channels.some((c) => c.id === channelId) ? [] : [{ field: `channels.${i}`, reason: 'not_allowed' as const }],
        );
        if (unknown.length > 0)
          throw new ApiError('validation_failed', { message: 'Not a channel of this account.', details: unknown });
        assertChannelsReady(body.channels, channels);
        touched = channels;
        const listing = await listingRepository.load(tx, id);
        const snapshot = snapshotOf(listing);
        assertEnergyRule(snapshot.property, today(at));
        // An advert states the commission: terms whose lawfulness depends on who engaged the broker are asked about here.
        assertCommissionPublishable(snapshot.property);
        let wentLive = false;
        for (const channel of channels) {
          const before = listing.publications.find((p) => p.channel_id === channel.id);
          const reason = refuses(channel.type, snapshot);
          const state = reason === null ? 'live' : 'failed';
          if (state === 'live' && before?.state !== 'live') wentLive = true;
          const data = {
            state,
            reason,
            live_at: state === 'live' ? (before?.state === 'live' ? before.live_at : at) : null,
            withdrawn_at: null,
            updated_at: at,
          } as const;
          await listingRepository.setPublication(tx, accountId, id, channel.id, data);
        }
        if (wentLive) await markPublished(tx, 'listings', id, at);
        const view = await viewOf(tx, accountId, await listingRepository.load(tx, id));
        if (wentLive) {
          // The channels it is live on now, in channel order (the view's order).
          const live = view.channels.filter((p) => p.state === 'live').map((p) => p.channel_name);
          await emit(tx, {
            accountId,
            type: 'listing.published',
            data: { listing_id: id, property_id: row.property_id, channels: live },
            at,
          });
        }
        return view;
      });
      await publicationsChanged(touched);
      return published;
    },

    /** Takes the listing off the given channels (all without `channels`); live nowhere any more → `withdrawn`. */
    async withdraw(accountId: string, id: string, body: WithdrawBody): Promise<Listing> {
      const at = now();
      const withdrawn = await inTransaction(db, async (tx) => {
        await listingRepository.hold(tx, accountId, id);
        if (body.channels) {
          for (const [i, channelId] of body.channels.entries()) {
            await channelRepository.find(
              tx,
              accountId,
              channelId,
              () =>
                new ApiError('validation_failed', {
                  message: 'Not a channel of this account.',
                  details: [{ field: `channels.${i}`, reason: 'not_allowed' }],
                }),
            );
          }
        }
        await listingRepository.withdrawPublications(tx, id, at, body.channels);
        if ((await listingRepository.liveCount(tx, id)) === 0) await markWithdrawn(tx, 'listings', id, at);
        return viewOf(tx, accountId, await listingRepository.load(tx, id));
      });
      const offChannels = body.channels ?? withdrawn.channels.map((c) => c.channel_id);
      await publicationsChanged(await channelRepository.ofAccount(db, accountId, offChannels));
      return withdrawn;
    },
  };
}
