import type { Db } from '@platform/db';

/**
 * The account's prospect's viewing appointments, earliest start first (for the Auskunft): read only.
 * Every column about the prospect's appointment except `host`: the agent who shows the property is
 * a third party, not data about the prospect.
 */
export function appointmentsOfProspect(db: Db, accountId: string, prospectId: string) {
  return db.appointment.findMany({
    where: { account_id: accountId, prospect_id: prospectId },
    orderBy: [{ starts_at: 'asc' }, { id: 'asc' }],
    select: {
      id: true,
      property_id: true,
      inquiry_id: true,
      status: true,
      starts_at: true,
      ends_at: true,
      sequence: true,
      history: true,
      slot_id: true,
      confirmed_by: true,
      confirmed_at: true,
      cancelled_by: true,
      cancelled_at: true,
      cancel_reason: true,
      completed_at: true,
      created_at: true,
    },
  });
}
