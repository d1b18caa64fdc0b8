import type { Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { AgencyContact } from './schemas.js';

export type ChannelRow = Prisma.ChannelGetPayload<object>;

export const channelRepository = tenantRepository<ChannelRow, Prisma.ChannelUncheckedUpdateInput>({
  table: 'channels',
  list: 'channels',
  model: (db) => db.channel,
  notFound: () => notFound('No channel with this id.'),
});

/** The channel's agency contact, or null when none is set. */
export function contactOf(
  row: Pick<ChannelRow, 'contact_name' | 'contact_company' | 'contact_email' | 'contact_phone'>,
): AgencyContact | null {
  if (!row.contact_name) return null;
  return { name: row.contact_name, company: row.contact_company, email: row.contact_email, phone: row.contact_phone };
}
