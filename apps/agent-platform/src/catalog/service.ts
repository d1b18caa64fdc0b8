import { cursorPage } from '@platform/http';
import { scopeOf } from '@platform/resource';
import type { ApiContext } from '@platform/service';
import { publishedEntries, toCatalogEntry } from '../catalog-entries/index.js';
import type { CatalogQuery } from './schemas.js';

export type CatalogServiceDeps = Pick<ApiContext, 'db' | 'cursors'>;
export type CatalogService = ReturnType<typeof createCatalogService>;

/**
 * The internal catalog of an account: its published catalog entries. Publishing an entry
 * withdraws the agent's other published ones (under the agent's row lock), so each agent is in
 * it at most once, with the entry published last.
 */
export function createCatalogService({ db, cursors }: CatalogServiceDeps) {
  return {
    /** Newest first (by generation); the filters are part of the cursor's scope. */
    list(accountId: string, { capability, data_classification, limit, cursor }: CatalogQuery) {
      return cursorPage({
        cursors,
        scope: scopeOf('catalog', accountId, { capability, data_classification }),
        cursor,
        limit,
        fetch: (after, take) => publishedEntries(db, accountId, { capability, data_classification }, after, take),
        map: toCatalogEntry,
      });
    },
  };
}
