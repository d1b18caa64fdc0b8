// Proof of erasure: the audit records of erasures and anonymisations, the journal of erasures kept
// outside the database, and their re-application after a database restore.
export { withErasureAudit, type ErasureRequester, type ForgettingCause } from './audit.js';
export { createErasureJournal, type ErasureJournal, type JournalEntry } from './journal.js';
export { REAPPLY_COMMAND, pendingErasuresRefusal, reapplyErasures, type ReapplyResult } from './reapply.js';
export { erasureAuditRoutes } from './routes.js';
export { createErasureAuditService, type ErasureAuditService } from './service.js';
