// Proof of erasure: the audit records of erasures and anonymisations, the journal of erasures kept
// outside the database, and their re-application after a database restore.
import type { StartCheck } from '@platform/service';
import { createErasureJournal } from './journal.js';
import { pendingErasuresRefusal } from './reapply.js';

export { withErasureAudit, type ErasureRequester, type ForgettingCause } from './audit.js';
export { auditedErasure } from './journaled-erasure.js';
export { createErasureJournal, type ErasureJournal, type JournalEntry } from './journal.js';
export { REAPPLY_COMMAND, pendingErasuresRefusal, reapplyErasures, type ReapplyResult } from './reapply.js';
export { erasureAuditRoutes } from './routes.js';
export { createErasureAuditService, type ErasureAuditService } from './service.js';

/** The services' start check (API and worker): no erasure of the journal undone by a restore. */
export const erasureStartCheck: StartCheck = ({ db, now, erasureJournalDir }) =>
  pendingErasuresRefusal(db, createErasureJournal(erasureJournalDir), now());
