import { Type } from '@sinclair/typebox';
import { generateDocument, generationJobId, sweepDocuments, type DocumentKind } from '@platform/documents';
import { defineJob } from '@platform/service';
import { eventEmitter } from '@platform/webhooks';
import { AGENT_PLATFORM_EVENTS } from '../events.js';
import { snapshotOf } from './mapping.js';
import { renderCatalogRecord } from './record.js';

const emit = eventEmitter('agent_platform', AGENT_PLATFORM_EVENTS);

/** The record (PDF) of a catalog entry, rendered from its snapshot only (never from the agent as it is now). */
export const catalogEntryDocument: DocumentKind = {
  table: 'catalog_entries',
  async render(db, _storage, id) {
    const row = await db.catalogEntry.findUniqueOrThrow({ where: { id }, select: { snapshot: true } });
    return renderCatalogRecord(snapshotOf(row));
  },
  async completed(tx, document, at) {
    const row = await tx.catalogEntry.findUniqueOrThrow({ where: { id: document.id }, select: { agent_id: true, record_url: true } });
    await emit(tx, {
      accountId: document.account_id,
      type: 'catalog_entry.completed',
      data: { catalog_entry_id: document.id, agent_id: row.agent_id, status: 'completed', record_url: row.record_url },
      at,
    });
  },
};

export const GENERATE_CATALOG_ENTRY_JOB = defineJob({
  name: 'generate-catalog-entry',
  description: 'Renders the record (PDF) of a catalog entry from its snapshot and stores it (idempotent: a rerun of a finished entry does nothing).',
  payload: Type.Object({ catalog_entry_id: Type.String() }, { additionalProperties: false }),
  retry: { attempts: 3, backoffMs: 5_000 },
  run: async ({ db, storage, now }, { catalog_entry_id }) => ({
    catalog_entry_id,
    outcome: await generateDocument({ db, storage, now }, catalogEntryDocument, catalog_entry_id),
  }),
});

export const SWEEP_CATALOG_ENTRIES_JOB = defineJob({
  name: 'sweep-catalog-entries',
  description: 'Enqueues again every catalog entry stuck in `generating` for more than 10 minutes (its job was lost); after 3 such tries it fails.',
  payload: Type.Object({}, { additionalProperties: false }),
  schedule: { pattern: '* * * * *', tz: 'UTC' },
  retry: { attempts: 1, backoffMs: 0 },
  run: ({ db, now, jobs }) =>
    sweepDocuments({ db, now }, catalogEntryDocument, (id, sweep) =>
      jobs.enqueue(GENERATE_CATALOG_ENTRY_JOB, { catalog_entry_id: id }, generationJobId(id, sweep)),
    ),
});
