import type { Db } from '@platform/db';

/**
 * The inquiries a slot invites, best first: the property's inquiries by score (ties: the earlier
 * inquiry), one per prospect (their best), without knocked-out ones, anonymised prospects,
 * prospects already invited to or booked for this property (any appointment not cancelled, or
 * one they declined), and prospects with another open appointment at that time. The prospects
 * invited are held (share lock) until the allocation commits: an erasure running at the same time
 * waits and then cancels their new appointments, or, having committed first, keeps them out.
 */
export async function inquiriesToInvite(
  db: Db,
  slot: { account_id: string; property_id: string; starts_at: Date; ends_at: Date },
  limit: number,
) {
  // Walks the property's inquiries in the order of the index inquiries_allocation_idx and stops at the limit.
  return db.$queryRawUnsafe<{ id: string; prospect_id: string }[]>(
    `SELECT i.id, i.prospect_id
     FROM inquiries i JOIN prospects p ON p.id = i.prospect_id
     WHERE i.account_id = $1 AND i.property_id = $2 AND p.anonymised_at IS NULL
       AND (i.score_details->>'ausgeschlossen')::boolean IS NOT TRUE
       AND NOT EXISTS (
         SELECT 1 FROM inquiries j WHERE j.prospect_id = i.prospect_id AND j.property_id = i.property_id AND j.id <> i.id
           AND (j.score_details->>'ausgeschlossen')::boolean IS NOT TRUE
           AND (j.score > i.score OR (j.score = i.score AND (j.created_at, j.id) < (i.created_at, i.id))))
       AND NOT EXISTS (
         SELECT 1 FROM appointments a WHERE a.prospect_id = i.prospect_id AND a.property_id = i.property_id
           AND (a.status <> 'cancelled' OR a.cancel_reason = 'prospect_declined'))
       AND NOT EXISTS (
         SELECT 1 FROM appointments a WHERE a.prospect_id = i.prospect_id AND a.status IN ('proposed', 'confirmed')
           AND a.during && tstzrange($3, $4, '[)'))
     ORDER BY i.score DESC, i.created_at ASC, i.id ASC
     LIMIT $5
     FOR SHARE OF p`,
    slot.account_id,
    slot.property_id,
    slot.starts_at,
    slot.ends_at,
    limit,
  );
}
