import { randomBytes } from 'node:crypto';
import { inTransaction, isUniqueViolation, newId, type Db } from '@platform/db';
import { ApiError, applyMergePatch, compileBodyValidator } from '@platform/http';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../events.js';
import { channelRepository, contactOf, type ChannelRow } from './repository.js';
import {
  ChannelFieldsSchema,
  type AgencyContactInput,
  type Channel,
  type ChannelFields,
  type ChannelInput,
  type ChannelPatch,
} from './schemas.js';

/**
 * How many listings are live on each of the given channels (absent: none). The publications are the
 * listings' table: the app passes listings/' query in, so that channels imports nothing of listings
 * (listings publish onto channels and ask channels, not the other way round).
 */
export type LiveListingCounts = (db: Db, channelIds: readonly string[]) => Promise<Map<string, number>>;

export type ChannelServiceDeps = Pick<
  ApiContext<PropertyEvents>,
  'db' | 'cursors' | 'now' | 'publicBaseUrl' | 'emit'
> & {
  liveCounts: LiveListingCounts;
};
export type ChannelService = ReturnType<typeof createChannelService>;

/** Where the public feeds are: the path segment after it is a feed token, a secret (never logged). */
export const FEEDS_PATH = '/public/v1/feeds/';
/** The public path of a channel's feed (no key: the token is the secret). */
export const feedPath = (token: string) => `${FEEDS_PATH}${token}/listings`;

/** A new feed token: 24 random bytes, URL-safe (32 characters). */
const newFeedToken = () => randomBytes(24).toString('base64url');

const nameTaken = () => new ApiError('conflict', { message: 'The account already has a channel of this name.' });
const validFields = compileBodyValidator<ChannelFields>(ChannelFieldsSchema);

/** The contact's columns; `null` clears them all. */
function contactColumns(contact: AgencyContactInput | null | undefined) {
  return {
    contact_name: contact?.name ?? null,
    contact_company: contact?.company ?? null,
    contact_email: contact?.email ?? null,
    contact_phone: contact?.phone ?? null,
  };
}

/** The account's publication channels; every query is scoped by `account_id`. */
export function createChannelService({ db, cursors, now, publicBaseUrl, emit, liveCounts }: ChannelServiceDeps) {
  const toChannel = (row: ChannelRow, live: number): Channel => ({
    id: row.id,
    type: row.type,
    name: row.name,
    feed_url: `${publicBaseUrl}${feedPath(row.feed_token)}`,
    contact: contactOf(row),
    live_listings: live,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });
  const view = async (row: ChannelRow) => toChannel(row, (await liveCounts(db, [row.id])).get(row.id) ?? 0);
  const renaming = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
  };

  return {
    async create(accountId: string, input: ChannelInput): Promise<Channel> {
      const at = now();
      const row = await renaming(() =>
        channelRepository.insert(db, {
          id: newId('chan', at.getTime()),
          account_id: accountId,
          type: input.type,
          name: input.name,
          feed_token: newFeedToken(),
          ...contactColumns(input.contact),
          created_at: at,
          updated_at: at,
        }),
      );
      return toChannel(row, 0);
    },

    async get(accountId: string, id: string): Promise<Channel> {
      return view(await channelRepository.find(db, accountId, id));
    },

    async list(accountId: string, { limit, cursor }: { limit: number; cursor?: string }) {
      const page = await channelRepository.page(db, accountId, { cursors, cursor, limit, map: (row) => row });
      const counts = await liveCounts(
        db,
        page.data.map((row) => row.id),
      );
      return { ...page, data: page.data.map((row) => toChannel(row, counts.get(row.id) ?? 0)) };
    },

    /** A JSON merge patch of the name and the contact; the merged result is validated as a whole (a contact keeps its name and an e-mail or phone). */
    async update(accountId: string, id: string, patch: ChannelPatch): Promise<Channel> {
      const row = await renaming(() =>
        inTransaction(db, async (tx) => {
          const current = await channelRepository.lock(tx, accountId, id);
          // The current fields as an input document (`applyMergePatch` drops their nulls).
          const next = applyMergePatch({ name: current.name, contact: contactOf(current) }, patch, validFields);
          if (current.type === 'openimmo' && contactOf(current) && !next.contact) {
            // Without a contact the OpenImmo document lists nothing, and a portal's full import would delist every listing.
            const live = (await liveCounts(tx, [id])).get(id) ?? 0;
            if (live > 0)
              throw new ApiError('conflict', {
                message: `${live} listing(s) are live on this OpenImmo channel, which portals show only with its contact; change the contact instead, or withdraw them first.`,
              });
          }
          const columns = { name: next.name, ...contactColumns(next.contact) };
          const changed = (Object.keys(columns) as (keyof typeof columns)[]).some(
            (column) => columns[column] !== current[column],
          );
          return changed ? channelRepository.update(tx, id, { ...columns, updated_at: now() }) : current;
        }),
      );
      return view(row);
    },

    /**
     * A new feed token: the old one is refused (404) from this moment, on every instance (each feed
     * request looks its token up), and `channel.feed_token_rotated` is recorded in the same transaction.
     */
    async rotateFeedToken(accountId: string, id: string): Promise<Channel> {
      const row = await inTransaction(db, async (tx) => {
        await channelRepository.hold(tx, accountId, id);
        const at = now();
        const rotated = await channelRepository.update(tx, id, { feed_token: newFeedToken(), updated_at: at });
        await emit(tx, {
          accountId,
          type: 'channel.feed_token_rotated',
          data: { channel_id: rotated.id, name: rotated.name, type: rotated.type, rotated_at: at.toISOString() },
          at,
        });
        return rotated;
      });
      return view(row);
    },

    /** Removes a channel and its feed; refused while listings are live on it (withdraw them first). */
    delete(accountId: string, id: string): Promise<void> {
      return inTransaction(db, async (tx) => {
        await channelRepository.hold(tx, accountId, id);
        const live = (await liveCounts(tx, [id])).get(id) ?? 0;
        if (live > 0)
          throw new ApiError('conflict', {
            message: `${live} listing(s) are live on this channel; withdraw them first (POST /v1/listings/{id}/withdraw).`,
          });
        await channelRepository.delete(tx, id);
      });
    },
  };
}
