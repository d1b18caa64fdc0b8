import type { Db } from '@platform/db';
import { anonymiseExpired, eraseProspect, type EndViewings } from '../retention/index.js';
import { withErasureAudit } from './audit.js';
import type { ErasureJournal, JournalEntry } from './journal.js';
import { newestErasureAt, prospectsNotForgotten } from './repository.js';

/**
 * How far before the database's newest erasure the start check reads the journal: transactions
 * that commit out of the order of their erasure times stay inside it.
 */
const OVERLAP_MS = 10 * 60_000;

/** The command the restore procedure runs, named by the refusal to start. */
export const REAPPLY_COMMAND = 'pnpm cli erasures reapply';

/** The journal entries (all, or those since `since`) whose prospect still holds personal data. */
async function pendingOf(db: Db, journal: ErasureJournal, since?: Date): Promise<JournalEntry[]> {
  const entries = await journal.entries(since);
  const notForgotten = await prospectsNotForgotten(
    db,
    entries.map((entry) => entry.prospect_id),
  );
  return entries.filter((entry) => notForgotten.has(entry.prospect_id));
}

/**
 * The start check: erasures of the journal a restored database does not have. Cheap: only the
 * journal's file names after the database's newest erasure record (minus an overlap) are read,
 * and their prospects looked up in one query. Returns the refusal line, or undefined.
 */
export async function pendingErasuresRefusal(db: Db, journal: ErasureJournal): Promise<string | undefined> {
  const newest = await newestErasureAt(db);
  const since = newest ? new Date(newest.getTime() - OVERLAP_MS) : undefined;
  const pending = await pendingOf(db, journal, since);
  if (pending.length === 0) return undefined;
  return (
    `${pending.length} recorded erasure(s) are missing from the database (restored from a backup?): ` +
    `run \`${REAPPLY_COMMAND}\` before starting the services.`
  );
}

export interface ReapplyResult {
  /** Journal entries read. */
  recorded: number;
  /** Prospects erased again (with the erasure's original time and requester). */
  reapplied: number;
  /** Prospects anonymised because their retention date had passed (nightly runs lost with the restore). */
  anonymised: number;
}

/**
 * After a database restore: every erasure of the journal whose prospect still holds personal data
 * is applied again, with its original time, requester and record id (the record notes when it was
 * re-applied); then the expired prospects are anonymised. Running it again changes nothing.
 */
export async function reapplyErasures(
  db: Db,
  journal: ErasureJournal,
  endViewings: EndViewings,
  now: Date,
): Promise<ReapplyResult> {
  const recorded = (await journal.entries()).length;
  const pending = await pendingOf(db, journal);
  for (const entry of pending) {
    const requester =
      entry.requested_by === 'api_key'
        ? { by: 'api_key' as const, applicationId: entry.application_id ?? '', keyId: entry.key_id ?? '' }
        : { by: 'cli' as const };
    const audited = withErasureAudit(endViewings, {
      kind: 'erasure',
      requester,
      reapplied: { recordId: entry.record_id, at: now },
    });
    await eraseProspect(db, entry.account_id, entry.prospect_id, new Date(entry.erased_at), audited);
  }
  const anonymised = await anonymiseExpired(db, now, withErasureAudit(endViewings, { kind: 'anonymisation' }));
  return { recorded, reapplied: pending.length, anonymised };
}
