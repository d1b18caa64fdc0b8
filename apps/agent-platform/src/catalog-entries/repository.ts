import type { Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';

export type CatalogEntryRow = Prisma.CatalogEntryGetPayload<object>;

export const catalogEntryRepository = tenantRepository<CatalogEntryRow, Prisma.CatalogEntryUncheckedUpdateInput>({
  table: 'catalog_entries',
  list: 'catalog_entries',
  model: (db) => db.catalogEntry,
  notFound: () => notFound('No catalog entry with this id.'),
});
