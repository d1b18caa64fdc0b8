import type { Db } from '@platform/db';
import type { EndViewings } from '../retention/index.js';
import { withErasureAudit, type ErasureRequester } from './audit.js';
import type { ErasureJournal, JournalEntry } from './journal.js';
import { erasureRecordsPresent } from './repository.js';

/**
 * Prepared journal entries made final by what the database holds: an entry whose erasure record
 * committed becomes `.json`, one whose transaction rolled back is removed. The database decides,
 * not whether the call threw: an error after the commit still leaves a committed erasure.
 */
export async function settlePrepared(db: Db, journal: ErasureJournal, prepared: JournalEntry[]): Promise<void> {
  if (prepared.length === 0) return;
  const committed = await erasureRecordsPresent(
    db,
    prepared.map((entry) => ({ account_id: entry.account_id, id: entry.record_id })),
  );
  for (const entry of prepared) {
    await (committed.has(entry.record_id) ? journal.commit(entry) : journal.discard(entry));
  }
}

/**
 * Runs an erasure on request with its audit: `erase` gets the `EndViewings` to hand to
 * `eraseProspect`, which writes the audit record and prepares the journal entry in its
 * transaction; after it (committed, rolled back or failed) the prepared entries are settled.
 */
export async function auditedErasure<T>(
  deps: { db: Db; endViewings: EndViewings; journal?: ErasureJournal },
  request: { accountId: string; requester: ErasureRequester },
  erase: (audited: EndViewings) => Promise<T>,
): Promise<T> {
  const { db, endViewings, journal } = deps;
  const prepared: JournalEntry[] = [];
  const preparing = journal && {
    prepare: async (entry: JournalEntry) => {
      prepared.push(entry);
      await journal.prepare(entry);
    },
  };
  const audited = withErasureAudit(endViewings, { kind: 'erasure', ...request, journal: preparing });
  let result: T;
  try {
    result = await erase(audited);
  } catch (error) {
    // Settled if the database answers; otherwise left `.pending` for the start check (stale entries).
    if (journal) await settlePrepared(db, journal, prepared).catch(() => undefined);
    throw error;
  }
  if (journal) await settlePrepared(db, journal, prepared);
  return result;
}
