import { documentFile, documentState } from '@platform/documents';
import type { CatalogEntryRow } from './repository.js';
import type { CatalogEntry } from './schemas.js';
import type { CatalogEntrySnapshot } from './snapshot.js';

/** What the `snapshot` column holds: the agent and its artifacts as they were, never changed after generation. */
export function snapshotOf(row: Pick<CatalogEntryRow, 'snapshot'>): CatalogEntrySnapshot {
  return row.snapshot as unknown as CatalogEntrySnapshot;
}

export function toCatalogEntry(row: CatalogEntryRow): CatalogEntry {
  const snapshot = snapshotOf(row);
  return {
    id: row.id,
    agent_id: row.agent_id,
    version: row.version,
    status: row.status,
    agent: snapshot.agent,
    artifacts: snapshot.artifacts,
    record_url: row.record_url,
    record: documentFile(row),
    ...documentState(row),
  };
}
