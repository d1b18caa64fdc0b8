import type { Db } from '@platform/db';
import { prospectsBusyDuring, prospectsSeenForProperty } from '../appointments/index.js';
import { inquiriesToInvite } from '../leads/inquiries/index.js';

/**
 * Whom a slot invites, best first (leads rank the inquiries): not prospects already invited to or
 * booked for the property, nor those with another open appointment at the slot's time.
 */
export function inviteesOf(
  db: Db,
  slot: { account_id: string; property_id: string; starts_at: Date; ends_at: Date },
  limit: number,
) {
  return inquiriesToInvite(db, slot, limit, [
    prospectsSeenForProperty(slot.property_id),
    prospectsBusyDuring(slot.starts_at, slot.ends_at),
  ]);
}
