import type { Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';

export type ChannelRow = Prisma.ChannelGetPayload<object>;

export const channelRepository = tenantRepository<ChannelRow, Prisma.ChannelUncheckedUpdateInput>({
  table: 'channels',
  list: 'channels',
  model: (db) => db.channel,
  notFound: () => notFound('No channel with this id.'),
});
