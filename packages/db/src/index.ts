export * from './client.js';
export { newId } from './ids.js';
export { startEmbeddedPostgres, type EmbeddedDatabase, type EmbeddedOptions } from './embedded.js';
export { runMigrations, readMigrations, DEFAULT_MIGRATIONS_DIR, type Migration } from './migrate.js';
export { lockOwnRow } from './lock-sql.js';
export { inTransaction } from './transaction.js';
