// Proof of erasure: the audit records of erasures and anonymisations, the journal of erasures kept
// outside the database, and their re-application after a database restore.
import type { DirectorySetting, StartCheck } from '@platform/service';
import { createErasureJournal } from './journal.js';
import { pendingErasuresRefusal } from './reapply.js';

export { withErasureAudit, type ErasureRequester, type ForgettingCause } from './audit.js';
export { auditedErasure } from './journaled-erasure.js';
export { createErasureJournal, type ErasureJournal, type JournalEntry } from './journal.js';
export { REAPPLY_COMMAND, pendingErasuresRefusal, reapplyErasures, type ReapplyResult } from './reapply.js';
export { erasureAuditRoutes } from './routes.js';
export { createErasureAuditService, type ErasureAuditService } from './service.js';

/** The journal's directory, a setting of the service (every instance, the worker and the CLI name the same). */
export const erasureJournalSetting = {
  kind: 'directory',
  name: 'erasureJournalDir',
  variable: 'ERASURE_JOURNAL_DIR',
  default: 'erasure-journal',
  description:
    'Where every erasure of a prospect is also kept outside the database (ids and times only), so that a restored backup cannot bring an erased person back. Every instance, the worker and the CLI must name the same directory (shared storage when instances run on several machines), kept apart from what a restore puts back (docs/operations.md, "Backup and restore").',
} as const satisfies DirectorySetting;

/** The journal's directory among the service's resolved directories. */
export const erasureJournalDirOf = (directories: Record<string, string>): string =>
  directories[erasureJournalSetting.name]!;

/** The services' start check (API and worker): no erasure of the journal undone by a restore. */
export const erasureStartCheck: StartCheck = ({ db, now, directories }) =>
  pendingErasuresRefusal(db, createErasureJournal(erasureJournalDirOf(directories)), now());
