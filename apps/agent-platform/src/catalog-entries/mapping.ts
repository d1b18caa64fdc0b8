import type { CatalogEntryRow } from './repository.js';
import type { CatalogEntry } from './schemas.js';
import type { CatalogEntrySnapshot } from './snapshot.js';

const iso = (value: Date | null) => value?.toISOString() ?? null;

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
    record: row.sha256 === null || row.size === null ? null : { size: row.size, sha256: row.sha256 },
    failure_reason: row.failure_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    completed_at: iso(row.completed_at),
    published_at: iso(row.published_at),
  };
}
