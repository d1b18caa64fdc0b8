import { randomBytes } from 'node:crypto';
import { inTransaction, isUniqueViolation, newId, type Db } from '@platform/db';
import { ApiError } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { channelRepository, type ChannelRow } from './repository.js';
import type { Channel, ChannelInput, ChannelPatch } from './schemas.js';

export type ChannelServiceDeps = Pick<ApiContext, 'db' | 'cursors' | 'now' | 'publicBaseUrl'>;
export type ChannelService = ReturnType<typeof createChannelService>;

/** The public path of a channel's feed (no key: the token is the secret). */
export const feedPath = (token: string) => `/public/v1/feeds/${token}/listings`;

const nameTaken = () => new ApiError('conflict', { message: 'The account already has a channel of this name.' });

async function liveCounts(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.listingPublication.groupBy({ by: ['channel_id'], where: { channel_id: { in: ids }, state: 'live' }, _count: { _all: true } });
  return new Map(rows.map((row) => [row.channel_id, row._count._all]));
}

/** The account's publication channels; every query is scoped by `account_id`. */
export function createChannelService({ db, cursors, now, publicBaseUrl }: ChannelServiceDeps) {
  const toChannel = (row: ChannelRow, live: number): Channel => ({
    id: row.id,
    type: row.type,
    name: row.name,
    feed_url: `${publicBaseUrl}${feedPath(row.feed_token)}`,
    live_listings: live,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });
  const view = async (row: ChannelRow) => toChannel(row, (await liveCounts(db, [row.id])).get(row.id) ?? 0);

  return {
    async create(accountId: string, input: ChannelInput): Promise<Channel> {
      const at = now();
      try {
        const row = await db.channel.create({
          data: { id: newId('chan', at.getTime()), account_id: accountId, type: input.type, name: input.name, feed_token: randomBytes(24).toString('base64url'), created_at: at, updated_at: at },
        });
        return toChannel(row, 0);
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken();
        throw error;
      }
    },

    async get(accountId: string, id: string): Promise<Channel> {
      return view(await channelRepository.find(db, accountId, id));
    },

    async list(accountId: string, { limit, cursor }: { limit: number; cursor?: string }) {
      const page = await channelRepository.page(db, accountId, { cursors, cursor, limit, map: (row) => row });
      const counts = await liveCounts(db, page.data.map((row) => row.id));
      return { ...page, data: page.data.map((row) => toChannel(row, counts.get(row.id) ?? 0)) };
    },

    async update(accountId: string, id: string, patch: ChannelPatch): Promise<Channel> {
      const row = await channelRepository.find(db, accountId, id);
      if (patch.name === undefined || patch.name === row.name) return view(row);
      try {
        return view(await db.channel.update({ where: { id }, data: { name: patch.name, updated_at: now() } }));
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken();
        throw error;
      }
    },

    /** Removes a channel and its feed; refused while listings are live on it (withdraw them first). */
    delete(accountId: string, id: string): Promise<void> {
      return inTransaction(db, async (tx) => {
        await channelRepository.hold(tx, accountId, id);
        const live = (await liveCounts(tx, [id])).get(id) ?? 0;
        if (live > 0) throw new ApiError('conflict', { message: `${live} listing(s) are live on this channel; withdraw them first (POST /v1/listings/{id}/withdraw).` });
        await tx.channel.delete({ where: { id } });
      });
    },
  };
}
