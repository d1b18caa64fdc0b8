import { newIds, type Db } from '@platform/db';
import type { EndViewings } from '../retention/index.js';
import type { ErasureJournal } from './journal.js';
import { inquiryCounts, insertErasureRecords, type NewErasureRecord } from './repository.js';

/** On whose request a prospect is erased: an API key (its application and key), or the operator's CLI. */
export type ErasureRequester = { by: 'api_key'; applicationId: string; keyId: string } | { by: 'cli' };

/** Why a prospect is forgotten: an erasure on request, or the nightly anonymisation (retention date passed). */
export type ForgettingCause =
  | {
      kind: 'erasure';
      /** The erased prospect's account: the audit reads that account's rows only. */
      accountId: string;
      requester: ErasureRequester;
      /** Where the erasure is prepared outside the database (absent: the database only); see `auditedErasure`. */
      journal?: Pick<ErasureJournal, 'prepare'>;
      /** A re-application after a restore: the journal's record id, and when it was re-applied. */
      reapplied?: { recordId: string; at: Date };
    }
  | { kind: 'anonymisation' };

/**
 * The viewings ending cancelled, per prospect: the app's `EndViewings` reports them as rows with a
 * `prospect_id` (`endViewingsReporting`), or as a number, which counts for a single prospect only.
 */
function cancelledPerProspect(ended: unknown, prospectIds: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  if (Array.isArray(ended)) {
    for (const { prospect_id } of ended as { prospect_id: string }[])
      counts.set(prospect_id, (counts.get(prospect_id) ?? 0) + 1);
  } else if (typeof ended === 'number' && prospectIds.length === 1) {
    counts.set(prospectIds[0]!, ended);
  }
  return counts;
}

/**
 * Retention's `EndViewings`, which runs in the forgetting transaction, extended with the audit: after
 * the viewings are ended, one record per forgotten prospect (ids, counts, on whose request or by
 * which rule) is written in the same transaction; an erasure's journal entry is prepared (`.pending`)
 * before the commit, and made to count after it by `auditedErasure`. Record ids carry the time `at`.
 */
export function withErasureAudit(endViewings: EndViewings, cause: ForgettingCause): EndViewings {
  return async (tx: Db, accountId, prospectIds, how, at) => {
    const ended = await endViewings(tx, accountId, prospectIds, how, at);
    const cancelled = cancelledPerProspect(ended, prospectIds);
    const counts = await inquiryCounts(tx, prospectIds, accountId);
    const ids =
      cause.kind === 'erasure' && cause.reapplied
        ? [cause.reapplied.recordId]
        : newIds('loe', counts.length, at.getTime());
    const requester = cause.kind === 'erasure' ? cause.requester : undefined;
    const records: NewErasureRecord[] = counts.map((row, index) => ({
      id: ids[index]!,
      account_id: row.account_id,
      prospect_id: row.prospect_id,
      kind: cause.kind,
      requested_by: requester?.by ?? 'retention',
      application_id: requester?.by === 'api_key' ? requester.applicationId : null,
      key_id: requester?.by === 'api_key' ? requester.keyId : null,
      inquiries_count: row.inquiries_count,
      appointments_count: cancelled.get(row.prospect_id) ?? 0,
      created_at: at,
      reapplied_at: cause.kind === 'erasure' ? (cause.reapplied?.at ?? null) : null,
    }));
    await insertErasureRecords(tx, records);
    if (cause.kind === 'erasure' && cause.journal) {
      for (const record of records) {
        await cause.journal.prepare({
          record_id: record.id,
          account_id: record.account_id,
          prospect_id: record.prospect_id,
          erased_at: at.toISOString(),
          requested_by: record.requested_by as 'api_key' | 'cli',
          application_id: record.application_id,
          key_id: record.key_id,
        });
      }
    }
    return ended;
  };
}
