import type { ServiceEntry } from '@platform/runtime';
import { createErasureJournal, erasureJournalDirOf } from './leads/erasure-audit/index.js';
import { buildPropertyApp } from './app.js';
import { propertyDescriptor } from './descriptor.js';

export { buildPropertyApp, type PropertyAppDeps } from './app.js';
export { propertyDescriptor } from './descriptor.js';
export { PROPERTY_JOBS } from './jobs.js';
// What the operator's CLI asks of this service's tables.
export { appointmentsBetween } from './appointments/index.js';
export { insertMarketTransactions } from './valuations/index.js';
export {
  auditedErasure,
  createErasureJournal,
  erasureJournalDirOf,
  reapplyErasures,
  type ReapplyResult,
} from './leads/erasure-audit/index.js';
export { eraseProspect } from './leads/retention/index.js';
export { endViewingsReporting } from './forgotten-viewings.js';

export const propertyService: ServiceEntry = {
  descriptor: propertyDescriptor,
  build: (deps) =>
    buildPropertyApp({
      ...deps,
      erasureJournal: createErasureJournal(erasureJournalDirOf(deps.directories)),
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
