import { documentJobs, type DocumentKind } from '@platform/documents';
import { eventEmitter } from '@platform/webhooks';
import { AGENT_PLATFORM_EVENTS } from '../events.js';
import { snapshotOf } from './mapping.js';
import { catalogEntryOrigin, catalogEntrySnapshot } from './repository.js';
import { RENDER_CATALOG_RECORD } from './record.js';
import type { CatalogEntrySnapshot } from './snapshot.js';

const emit = eventEmitter('agent_platform', AGENT_PLATFORM_EVENTS);

/** The record (PDF) of a catalog entry, rendered in the sandbox from its snapshot only (never from the agent as it is now). */
export const catalogEntryDocument: DocumentKind<CatalogEntrySnapshot> = {
  table: 'catalog_entries',
  async load(db, id) {
    return { data: snapshotOf(await catalogEntrySnapshot(db, id)) };
  },
  renderer: RENDER_CATALOG_RECORD,
  async completed(tx, document, at) {
    const row = await catalogEntryOrigin(tx, document.id);
    await emit(tx, {
      accountId: document.account_id,
      type: 'catalog_entry.completed',
      data: { catalog_entry_id: document.id, agent_id: row.agent_id, status: 'completed', record_url: row.record_url },
      at,
    });
  },
};

export const catalogEntryJobs = documentJobs(catalogEntryDocument, {
  name: 'catalog-entry',
  plural: 'catalog-entries',
  idField: 'catalog_entry_id',
  renders: 'the record (PDF) of a catalog entry',
});
export const GENERATE_CATALOG_ENTRY_JOB = catalogEntryJobs.generate;
export const SWEEP_CATALOG_ENTRIES_JOB = catalogEntryJobs.sweep;
