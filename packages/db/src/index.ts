export * from './client.js';
export { readRows, inDirectTransaction, type SqlRunner } from './direct-sql.js';
export { newId, newIds } from './ids.js';
export { sql, joinSql, type Sql } from './sql-fragment.js';
export {
  startEmbeddedPostgres,
  embeddedUrl,
  embeddedServerOf,
  closedAncestor,
  EmbeddedPostgresError,
  EmbeddedPostgresBusyError,
  EMBEDDED_SUPERUSER,
  type EmbeddedDatabase,
  type EmbeddedOptions,
  type EmbeddedRole,
} from './embedded.js';
export { ensureOwnedDatabase } from './owner-sql.js';
export { scramSha256Verifier } from './scram.js';
export { runMigrations, readMigrations, DEFAULT_MIGRATIONS_DIR, type Migration } from './migrate.js';
export { advisoryXactLock, lockOwnRow, tryAdvisoryXactLock } from './lock-sql.js';
export { inSnapshot, inTransaction } from './transaction.js';
export { postgresError, isUniqueViolation, type PostgresError } from './postgres-error.js';
export { stopWithThisProcess } from './orphan-guard.js';
