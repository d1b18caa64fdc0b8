import type { Db } from '@platform/db';

/**
 * The inquiries a slot invites, best first: the property's inquiries by score (ties: the earlier
 * inquiry), one per prospect (their best), without knocked-out ones, anonymised prospects,
 * prospects already invited to or booked for this property (any appointment not cancelled, or
 * one they declined), and prospects with another open appointment at that time. The prospects
 * invited are held (share lock) until the allocation commits: an erasure running at the same time
 * waits and then cancels their new appointments, or, having committed first, keeps them out.
 */
export async function inquiriesToInvite(db: Db, slot: { account_id: string; property_id: string; starts_at: Date; ends_at: Date }, limit: number) {
  return db.$queryRawUnsafe<{ id: string; prospect_id: string }[]>(
    `SELECT best.id, best.prospect_id FROM (
       SELECT DISTINCT ON (i.prospect_id) i.id, i.prospect_id, i.score, i.created_at
       FROM inquiries i JOIN prospects p ON p.id = i.prospect_id AND p.anonymised_at IS NULL
       WHERE i.account_id = $1 AND i.property_id = $2
         AND (i.score_details->>'ausgeschlossen')::boolean IS NOT TRUE
         AND NOT EXISTS (
           SELECT 1 FROM appointments a WHERE a.prospect_id = i.prospect_id AND a.property_id = i.property_id
             AND (a.status <> 'cancelled' OR a.cancel_reason = 'prospect_declined'))
         AND NOT EXISTS (
           SELECT 1 FROM appointments a WHERE a.prospect_id = i.prospect_id AND a.status IN ('proposed', 'confirmed')
             AND a.during && tstzrange($3, $4, '[)'))
       ORDER BY i.prospect_id, i.score DESC, i.created_at ASC, i.id ASC
     ) best
     JOIN prospects p ON p.id = best.prospect_id
     WHERE p.anonymised_at IS NULL
     ORDER BY best.score DESC, best.created_at ASC, best.id ASC
     LIMIT $5
     FOR SHARE OF p`,
    slot.account_id,
    slot.property_id,
    slot.starts_at,
    slot.ends_at,
    limit,
  );
}
