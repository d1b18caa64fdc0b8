import { advisoryXactLock, type Db, type Prisma } from '@platform/db';
import { NEWEST_FIRST, notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';

export type CatalogEntryRow = Prisma.CatalogEntryGetPayload<object>;

export const catalogEntryRepository = tenantRepository<CatalogEntryRow, Prisma.CatalogEntryUncheckedUpdateInput>({
  table: 'catalog_entries',
  list: 'catalog_entries',
  model: (db) => db.catalogEntry,
  notFound: () => notFound('No catalog entry with this id.'),
});

/** An entry by id alone (known to exist: read again after a write, or by its document job). */
export const loadCatalogEntry = (db: Db, id: string) => db.catalogEntry.findUniqueOrThrow({ where: { id } });

/** The snapshot of an entry (what its record is rendered from). */
export const catalogEntrySnapshot = (db: Db, id: string) =>
  db.catalogEntry.findUniqueOrThrow({ where: { id }, select: { snapshot: true } });

/** The agent and record address of an entry (its completion event). */
export const catalogEntryOrigin = (db: Db, id: string) =>
  db.catalogEntry.findUniqueOrThrow({ where: { id }, select: { agent_id: true, record_url: true } });

/** Ids of the agent's published entries, but `keep`. */
export function publishedEntriesOfAgent(db: Db, accountId: string, agentId: string, keep?: string) {
  return db.catalogEntry.findMany({
    where: { account_id: accountId, agent_id: agentId, status: 'published', ...(keep ? { id: { not: keep } } : {}) },
    select: { id: true },
  });
}

/** The next version of the agent's entries; serialised per agent, so two generations never pick the same number. */
export async function nextVersion(tx: Db, agentId: string): Promise<number> {
  await advisoryXactLock(tx, `catalog_entries.version:${agentId}`);
  const { _max } = await tx.catalogEntry.aggregate({ where: { agent_id: agentId }, _max: { version: true } });
  return (_max.version ?? 0) + 1;
}

/** Stores a new entry. */
export function insertCatalogEntry(
  db: Db,
  data: Omit<Prisma.CatalogEntryUncheckedCreateInput, 'snapshot'> & { snapshot: object },
): Promise<CatalogEntryRow> {
  return db.catalogEntry.create({ data });
}

/** A page of the account's published entries (the internal catalog), newest first. */
export function publishedEntries(
  db: Db,
  accountId: string,
  filter: { capability?: string; data_classification?: CatalogEntryRow['data_classification'] },
  after: Prisma.CatalogEntryWhereInput,
  take: number,
): Promise<CatalogEntryRow[]> {
  return db.catalogEntry.findMany({
    where: {
      account_id: accountId,
      status: 'published',
      ...(filter.capability === undefined ? {} : { capabilities: { has: filter.capability } }),
      ...(filter.data_classification === undefined ? {} : { data_classification: filter.data_classification }),
      ...after,
    },
    orderBy: NEWEST_FIRST,
    take,
  });
}
