import type { Db } from '@platform/db';
import { anonymiseExpired, eraseProspect, type EndViewings } from '../retention/index.js';
import { withErasureAudit } from './audit.js';
import type { ErasureJournal, JournalEntry } from './journal.js';
import {
  erasureRecordsPresent,
  insertErasureRecords,
  prospectsNotForgotten,
  type NewErasureRecord,
} from './repository.js';

/**
 * How far into the previous month the start check reads past a settled month: an erasure timed just
 * before the month's end whose transaction committed after later ones stays inside it.
 */
const OVERLAP_MS = 10 * 60_000;
/**
 * A prepared entry without its record, older than this, was left by a process that stopped (or lost
 * the database) around its transaction; younger ones may belong to a transaction still running.
 */
const LEFT_AFTER_MS = 15 * 60_000;

/** The command the restore procedure runs, named by the refusal to start. */
export const REAPPLY_COMMAND = 'pnpm cli erasures reapply';

/** The entries whose prospect still holds personal data (looked up by account and id). */
async function pendingIn(db: Db, entries: JournalEntry[]): Promise<JournalEntry[]> {
  const notForgotten = await prospectsNotForgotten(
    db,
    entries.map((entry) => ({ account_id: entry.account_id, id: entry.prospect_id })),
  );
  return entries.filter((entry) => notForgotten.has(entry.prospect_id));
}

/**
 * Prepared entries left behind. With its record in the database the erasure committed: the entry is
 * made final, whatever its age. Without it, once older than LEFT_AFTER_MS, the outcome cannot be
 * told apart (rolled back, or committed and then lost to a restore): the entry is made final too, as
 * the person did ask to be erased — if their data is still there, the start is refused until
 * `erasures reapply` erased them. A rollback the erasing process saw itself removed its entry.
 */
async function settleLeftPrepared(db: Db, journal: ErasureJournal, months: string[], now: number): Promise<void> {
  for (const month of months) {
    const prepared = await journal.prepared(month);
    if (prepared.length === 0) continue;
    const committed = await erasureRecordsPresent(
      db,
      prepared.map(({ entry }) => ({ account_id: entry.account_id, id: entry.record_id })),
    );
    for (const { entry, writtenAt } of prepared) {
      if (committed.has(entry.record_id) || now - writtenAt.getTime() >= LEFT_AFTER_MS) await journal.commit(entry);
    }
  }
}

/** Of these entries, those whose erasure record the database has not (restored from before it). */
async function withoutRecord(db: Db, entries: JournalEntry[]): Promise<JournalEntry[]> {
  const present = await erasureRecordsPresent(
    db,
    entries.map((entry) => ({ account_id: entry.account_id, id: entry.record_id })),
  );
  return entries.filter((entry) => !present.has(entry.record_id));
}

/**
 * The start check: erasures of the journal a restored database does not have. The months are read
 * newest first (their left prepared entries settled on the way), and the walk goes on while a month
 * has an entry whose erasure record the database lacks: the records, not the prospects, tell where
 * the backup ends, since a prospect created after the backup is missing, not forgotten, and says
 * nothing of older months. It stops at the first month with every record (plus the last OVERLAP_MS
 * of the month before it). Undone erasures are those whose prospect still holds personal data.
 * Returns the refusal line, or undefined.
 */
export async function pendingErasuresRefusal(db: Db, journal: ErasureJournal, now: Date): Promise<string | undefined> {
  const months = await journal.months();
  let pending = 0;
  for (const [index, month] of months.entries()) {
    await settleLeftPrepared(db, journal, [month], now.getTime());
    const entries = await journal.entries(month);
    pending += (await pendingIn(db, entries)).length;
    if ((await withoutRecord(db, entries)).length > 0) continue;
    const previous = months[index + 1];
    if (previous) {
      await settleLeftPrepared(db, journal, [previous], now.getTime());
      const monthStart = Date.parse(`${month}-01T00:00:00Z`);
      pending += (await pendingIn(db, await journal.entries(previous, new Date(monthStart - OVERLAP_MS)))).length;
    }
    break;
  }
  if (pending === 0) return undefined;
  return (
    `${pending} recorded erasure(s) are missing from the database (restored from a backup?): ` +
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
 * The record of a journal entry whose prospect the restored database does not have (created after
 * the backup) or has forgotten already: nothing was erased now, so the counts are 0; written so that
 * the start check finds the month settled.
 */
function settledRecord(entry: JournalEntry, now: Date): NewErasureRecord {
  return {
    id: entry.record_id,
    account_id: entry.account_id,
    prospect_id: entry.prospect_id,
    kind: 'erasure',
    requested_by: entry.requested_by,
    application_id: entry.application_id,
    key_id: entry.key_id,
    inquiries_count: 0,
    appointments_count: 0,
    created_at: new Date(entry.erased_at),
    reapplied_at: now,
  };
}

/**
 * After a database restore: every erasure of the journal (every month) whose prospect still holds
 * personal data is applied again, with its original time, requester and record id (the record
 * notes when it was re-applied); an entry whose prospect is missing or already forgotten gets its
 * record back (`settledRecord`); then the expired prospects are anonymised. Running it again changes
 * nothing.
 */
export async function reapplyErasures(
  db: Db,
  journal: ErasureJournal,
  endViewings: EndViewings,
  now: Date,
): Promise<ReapplyResult> {
  const months = await journal.months();
  await settleLeftPrepared(db, journal, months, now.getTime());
  let recorded = 0;
  let reapplied = 0;
  for (const month of months) {
    const entries = await journal.entries(month);
    recorded += entries.length;
    for (const entry of await pendingIn(db, entries)) {
      const requester =
        entry.requested_by === 'api_key'
          ? { by: 'api_key' as const, applicationId: entry.application_id ?? '', keyId: entry.key_id ?? '' }
          : { by: 'cli' as const };
      const audited = withErasureAudit(endViewings, {
        kind: 'erasure',
        accountId: entry.account_id,
        requester,
        reapplied: { recordId: entry.record_id, at: now },
      });
      await eraseProspect(db, entry.account_id, entry.prospect_id, new Date(entry.erased_at), audited);
      reapplied += 1;
    }
    await insertErasureRecords(
      db,
      (await withoutRecord(db, entries)).map((entry) => settledRecord(entry, now)),
    );
  }
  const anonymised = await anonymiseExpired(db, now, withErasureAudit(endViewings, { kind: 'anonymisation' }));
  return { recorded, reapplied, anonymised };
}
