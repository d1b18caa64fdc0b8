import type { Db, Prisma } from '@platform/db';
import { tenantRepository } from '@platform/resource';
import { leadsError } from '../dialect.js';
import type { Columns, ProspectRow } from './mapping.js';

export const prospectNotFound = () => leadsError('prospect_not_found');

/** What a change of a prospect may write: its columns, the dates of activity and retention, restriction and objection. */
type Changes = Partial<Columns> & {
  updated_at: Date;
  last_activity_at?: Date;
  retention_until?: Date;
  restricted_at?: Date | null;
  objected_at?: Date | null;
};

export const prospectRepository = tenantRepository<ProspectRow, Changes>({
  table: 'prospects',
  list: 'prospects',
  model: (db) => db.prospect,
  notFound: prospectNotFound,
});

/** The account's prospect locked for a change: missing or another account's is 404, anonymised is 409. */
export async function lockChangeableProspect(tx: Db, accountId: string, id: string): Promise<ProspectRow> {
  const prospect = await prospectRepository.lock(tx, accountId, id);
  if (prospect.anonymised_at) throw leadsError('prospect_anonymised_unchangeable');
  return prospect;
}

/** A new prospect. */
export function insertProspect(db: Db, data: Prisma.ProspectUncheckedCreateInput): Promise<ProspectRow> {
  return db.prospect.create({ data });
}

/** Writes changes to a prospect already found (and locked) in the caller's account. */
export function updateProspect(tx: Db, id: string, data: Changes): Promise<ProspectRow> {
  return tx.prospect.update({ where: { id }, data });
}

/** The account's prospects with these ids, in no order. */
export function prospectsByIds(db: Db, accountId: string, ids: string[]): Promise<ProspectRow[]> {
  return ids.length > 0
    ? db.prospect.findMany({ where: { account_id: accountId, id: { in: ids } } })
    : Promise.resolve([]);
}
