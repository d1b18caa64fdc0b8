import type { Db, Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { AgencyContact } from './schemas.js';

export type ChannelRow = Prisma.ChannelGetPayload<object>;

/** The account's publication channels: the only place the channels table is queried. */
export const channelRepository = {
  ...tenantRepository<ChannelRow, Prisma.ChannelUncheckedUpdateInput>({
    table: 'channels',
    list: 'channels',
    model: (db) => db.channel,
    notFound: () => notFound('No channel with this id.'),
  }),

  /**
   * The account's channels among the given ids (unknown ids and other accounts' channels are left
   * out), in the order they were created (ids break ties of the same millisecond): one query for all.
   */
  ofAccount(db: Db, accountId: string, ids: readonly string[]): Promise<ChannelRow[]> {
    return db.channel.findMany({
      where: { account_id: accountId, id: { in: [...ids] } },
      orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    });
  },

  /** A channel by id alone (the worker's transfers, which know no account yet), or null. */
  byId(db: Db, id: string): Promise<ChannelRow | null> {
    return db.channel.findUnique({ where: { id } });
  },

  /** The channel of a feed token, or null (its account's name is asked of @platform/accounts when a feed is built). */
  byFeedToken(db: Db, token: string): Promise<ChannelRow | null> {
    return db.channel.findUnique({ where: { feed_token: token } });
  },

  insert(db: Db, data: Prisma.ChannelUncheckedCreateInput): Promise<ChannelRow> {
    return db.channel.create({ data });
  },

  update(tx: Db, id: string, data: Prisma.ChannelUncheckedUpdateInput): Promise<ChannelRow> {
    return tx.channel.update({ where: { id }, data });
  },

  async delete(tx: Db, id: string): Promise<void> {
    await tx.channel.delete({ where: { id } });
  },
};

/** The channel's agency contact, or null when none is set. */
export function contactOf(
  row: Pick<ChannelRow, 'contact_name' | 'contact_company' | 'contact_email' | 'contact_phone'>,
): AgencyContact | null {
  if (!row.contact_name) return null;
  return { name: row.contact_name, company: row.contact_company, email: row.contact_email, phone: row.contact_phone };
}
