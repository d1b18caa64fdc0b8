import { join } from 'node:path';
import type { ServiceEntry } from '@platform/runtime';
import { createErasureJournal, pendingErasuresRefusal } from './leads/erasure-audit/index.js';
import { buildPropertyApp } from './app.js';
import { propertyDescriptor } from './descriptor.js';

export { buildPropertyApp, type PropertyAppDeps } from './app.js';
export { propertyDescriptor } from './descriptor.js';
export { PROPERTY_JOBS } from './jobs.js';
// What the operator's CLI asks of this service's tables.
export { appointmentsBetween } from './appointments/index.js';
export { insertMarketTransactions } from './valuations/index.js';
export { reapplyErasures, type ReapplyResult } from './leads/erasure-audit/index.js';
export { endViewingsReporting } from './forgotten-viewings.js';

/** The journal of erasures: beside the embedded database and the blobs, never inside the database. */
export const erasureJournalOf = (dataDir: string) => createErasureJournal(join(dataDir, 'erasure-journal'));

export const propertyService: ServiceEntry = {
  descriptor: propertyDescriptor,
  // After a database restore, the erasures since the backup must be applied again first.
  startCheck: ({ db, dataDir }) => pendingErasuresRefusal(db, erasureJournalOf(dataDir)),
  build: (deps) =>
    buildPropertyApp({
      ...deps,
      erasureJournal: erasureJournalOf(deps.dataDir),
      leadsRetentionDays: deps.settings.leadsRetentionDays,
      mediaMaxPixels: deps.settings.mediaMaxPixels,
      mediaMaxPerProperty: deps.settings.mediaMaxPerProperty,
      feeds: {
        perToken: deps.settings.feedRateLimitPerToken,
        perAddress: deps.settings.feedRateLimitPerAddress,
        cacheMb: deps.settings.feedCacheMb,
      },
    }),
};
