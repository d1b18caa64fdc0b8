import type { SqlRunner } from '@platform/db';

/** A match announced (or dropped over the daily bound) to a prospect, with the run's reason when still held. */
export interface ProspectAnnouncementRow {
  property_id: string;
  change_key: string;
  reason: string | null;
  score: number;
  announced: boolean;
  created_at: Date;
}

/** The account's prospect's announcements per day (the counter of the daily bound). */
export interface ProspectDailyCountRow {
  day: string;
  announced: number;
}

/**
 * What outreach holds about the account's prospect (the Auskunft): every announced or dropped
 * match, oldest first, and the daily counters still kept. Read only; pass the Auskunft's snapshot.
 */
export async function outreachOfProspect(db: SqlRunner, accountId: string, prospectId: string) {
  const announcements = await db.$queryRawUnsafe<ProspectAnnouncementRow[]>(
    `SELECT a.property_id, a.change_key, r.reason, a.score, a.announced, a.created_at
       FROM outreach_announcements AS a
       LEFT JOIN outreach_runs AS r ON r.id = a.run_id AND r.account_id = a.account_id
      WHERE a.account_id = $1 AND a.prospect_id = $2
      ORDER BY a.created_at, a.property_id, a.change_key`,
    accountId,
    prospectId,
  );
  const dailyCounts = await db.$queryRawUnsafe<ProspectDailyCountRow[]>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, announced
       FROM outreach_daily_counts WHERE account_id = $1 AND prospect_id = $2 ORDER BY day`,
    accountId,
    prospectId,
  );
  return { announcements, dailyCounts };
}
