import { joinSql, sql, type Db, type Sql } from '@platform/db';

/**
 * The inquiries a viewing slot invites, best first: the property's inquiries by score (ties: the
 * earlier inquiry), one per prospect (their best), without knocked-out ones, anonymised or restricted
 * prospects (Art. 18: no new viewing) and the prospects in any of `excluded` (fragments of rows `(prospect_id)`, e.g. those already
 * booked). The prospects invited are held (share lock) until the caller's transaction commits: an
 * erasure running at the same time waits and then cancels their new appointments, or, having
 * committed first, keeps them out.
 */
export function inquiriesToInvite(
  db: Db,
  slot: { account_id: string; property_id: string },
  limit: number,
  excluded: readonly Sql[],
) {
  const notExcluded = excluded.map(
    (rows) => sql`AND NOT EXISTS (SELECT 1 FROM (${rows}) x WHERE x.prospect_id = i.prospect_id)`,
  );
  // Walks the property's inquiries in the order of the index inquiries_allocation_idx and stops at the limit.
  return db.$queryRaw<{ id: string; prospect_id: string }[]>`
    SELECT i.id, i.prospect_id
     FROM inquiries i JOIN prospects p ON p.id = i.prospect_id
     WHERE i.account_id = ${slot.account_id} AND i.property_id = ${slot.property_id} AND p.anonymised_at IS NULL AND p.restricted_at IS NULL
       AND (i.score_details->>'ausgeschlossen')::boolean IS NOT TRUE
       AND NOT EXISTS (
         SELECT 1 FROM inquiries j WHERE j.prospect_id = i.prospect_id AND j.property_id = i.property_id AND j.id <> i.id
           AND (j.score_details->>'ausgeschlossen')::boolean IS NOT TRUE
           AND (j.score > i.score OR (j.score = i.score AND (j.created_at, j.id) < (i.created_at, i.id))))
       ${joinSql(notExcluded)}
     ORDER BY i.score DESC, i.created_at ASC, i.id ASC
     LIMIT ${limit}
     FOR SHARE OF p`;
}
