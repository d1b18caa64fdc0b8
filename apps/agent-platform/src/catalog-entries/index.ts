// The public surface of the catalog entries resource (entries, their record and their publication): the app and the catalog use only this.
export { catalogEntryRoutes } from './routes.js';
export { createCatalogEntryService, withdrawCatalogEntriesOfAgent, type CatalogEntryService } from './service.js';
export { GENERATE_CATALOG_ENTRY_JOB, SWEEP_CATALOG_ENTRIES_JOB } from './generation.js';
export { CatalogEntrySchema, type CatalogEntry } from './schemas.js';
export { toCatalogEntry } from './mapping.js';
export { publishedEntries } from './repository.js';
export { CATALOG_RULE_VERSION, catalogRuleProblems } from './rule.js';
