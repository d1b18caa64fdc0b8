import { newId, type Db, type SqlRunner } from '@platform/db';
import { reachableForOutreach } from '../consent/index.js';

/** Why a property's matches are announced: it went on the market, or its price was lowered. */
export type OutreachReason = 'aktivierung' | 'preissenkung';

/** Without a settings row: announce from score 70, at most 3 announcements per prospect per day. */
export const DEFAULT_SETTINGS = { threshold: 70, daily_limit: 3 } as const;

export interface OutreachSettings {
  threshold: number;
  daily_limit: number;
}

export interface OutreachRunRow {
  id: string;
  account_id: string;
  property_id: string;
  reason: OutreachReason;
  completed_at: Date | null;
}

/** The only place the outreach tables are read or written. */
export const outreachSql = {
  async settings(db: SqlRunner, accountId: string): Promise<OutreachSettings> {
    const rows = await db.$queryRawUnsafe<OutreachSettings[]>(
      'SELECT threshold, daily_limit FROM outreach_settings WHERE account_id = $1',
      accountId,
    );
    return rows[0] ?? { ...DEFAULT_SETTINGS };
  },

  async saveSettings(db: SqlRunner, accountId: string, settings: OutreachSettings, at: Date): Promise<void> {
    await db.$executeRawUnsafe(
      `INSERT INTO outreach_settings (account_id, threshold, daily_limit, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id) DO UPDATE SET threshold = EXCLUDED.threshold, daily_limit = EXCLUDED.daily_limit, updated_at = EXCLUDED.updated_at`,
      accountId,
      settings.threshold,
      settings.daily_limit,
      at,
    );
  },

  /** Records a run in the transaction of the property change (the job outbox); resolves to its id. */
  async insertRun(
    tx: SqlRunner,
    run: { accountId: string; propertyId: string; reason: OutreachReason; at: Date },
  ): Promise<string> {
    const id = newId('outr', run.at.getTime());
    await tx.$executeRawUnsafe(
      'INSERT INTO outreach_runs (id, account_id, property_id, reason, created_at) VALUES ($1, $2, $3, $4, $5)',
      id,
      run.accountId,
      run.propertyId,
      run.reason,
      run.at,
    );
    return id;
  },

  async findRun(db: SqlRunner, id: string): Promise<OutreachRunRow | undefined> {
    const rows = await db.$queryRawUnsafe<OutreachRunRow[]>(
      'SELECT id, account_id, property_id, reason, completed_at FROM outreach_runs WHERE id = $1',
      id,
    );
    return rows[0];
  },

  async completeRun(db: SqlRunner, id: string, counts: { announced: number; dropped: number }, at: Date) {
    await db.$executeRawUnsafe(
      'UPDATE outreach_runs SET completed_at = $2, announced = announced + $3, dropped = dropped + $4 WHERE id = $1',
      id,
      at,
      counts.announced,
      counts.dropped,
    );
  },

  /** Runs not completed and recorded before `before` (their job lost or failed), oldest first. */
  async pendingRuns(db: SqlRunner, before: Date, limit: number): Promise<string[]> {
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(
      'SELECT id FROM outreach_runs WHERE completed_at IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2',
      before,
      limit,
    );
    return rows.map((r) => r.id);
  },

  /**
   * Claims the pairs of one page and counts them against the daily bound, in one statement:
   * a pair already announced at this offer price (`change_key`, any run) is skipped; a new one
   * counts up the prospect's counter of the account's day only below the bound (the upsert's
   * row lock makes concurrent runs wait for each other). Resolves to the claimed pairs, each
   * `allowed` or over the bound. The prospects are share-locked and must still be reachable for
   * outreach (ranked before, outside this transaction): a withdrawal, objection, restriction,
   * erasure or anonymisation running now either finishes first (the claim, waiting on its row lock,
   * then skips them) or waits for the claim's commit (an erasure's deletes then see the claimed rows).
   * Every lock is taken in `prospect_id` order, whatever the ranking: two runs of one account
   * (different properties ranking shared prospects differently) then wait for each other instead
   * of deadlocking.
   */
  async claim(
    tx: Db,
    page: {
      accountId: string;
      propertyId: string;
      runId: string;
      matches: { id: string; score: number }[];
      keys: { sale: string; rent: string };
      dailyLimit: number;
      at: Date;
      /** The account's time zone: its day is the counter's. */
      timeZone: string;
    },
  ): Promise<{ prospect_id: string; score: number; allowed: boolean }[]> {
    return tx.$queryRawUnsafe(
      `WITH matched AS (
         SELECT m.prospect_id, m.score, CASE WHEN p.profile_marketing = 'rent' THEN $6 ELSE $5 END AS change_key
         FROM unnest($3::text[], $4::int[]) AS m(prospect_id, score)
         JOIN prospects AS p ON p.id = m.prospect_id AND p.account_id = $1
           AND p.profile_active AND ${reachableForOutreach('p')}
         ORDER BY m.prospect_id
         FOR SHARE OF p
       ),
       fresh AS (
         INSERT INTO outreach_announcements (account_id, property_id, prospect_id, change_key, run_id, score, announced, created_at)
         SELECT $1, $2, prospect_id, change_key, $7, score, true, $8 FROM matched ORDER BY prospect_id
         ON CONFLICT DO NOTHING
         RETURNING prospect_id, score
       ),
       counted AS (
         INSERT INTO outreach_daily_counts (account_id, prospect_id, day, announced)
         SELECT $1, prospect_id, ($8::timestamptz AT TIME ZONE $10::text)::date, 1
         FROM fresh WHERE $9::int > 0 ORDER BY prospect_id
         ON CONFLICT (account_id, prospect_id, day) DO UPDATE SET announced = outreach_daily_counts.announced + 1
           WHERE outreach_daily_counts.announced < $9::int
         RETURNING prospect_id
       )
       SELECT f.prospect_id, f.score, c.prospect_id IS NOT NULL AS allowed
       FROM fresh AS f LEFT JOIN counted AS c USING (prospect_id)
       ORDER BY f.score DESC, f.prospect_id`,
      page.accountId,
      page.propertyId,
      page.matches.map((m) => m.id),
      page.matches.map((m) => m.score),
      page.keys.sale,
      page.keys.rent,
      page.runId,
      page.at,
      page.dailyLimit,
      page.timeZone,
    );
  },

  /** Removes the counters of days over in every time zone (two UTC days back); resolves to how many. */
  pruneDailyCounts(db: SqlRunner, now: Date): PromiseLike<number> {
    return db.$executeRawUnsafe(
      "DELETE FROM outreach_daily_counts WHERE day < ($1::timestamptz AT TIME ZONE 'UTC')::date - 2",
      now,
    );
  },

  /** Marks the pairs of the run that were over the daily bound as dropped. */
  async markDropped(tx: SqlRunner, runId: string, prospectIds: string[]): Promise<void> {
    if (prospectIds.length === 0) return;
    await tx.$executeRawUnsafe(
      'UPDATE outreach_announcements SET announced = false WHERE run_id = $1 AND prospect_id = ANY($2::text[])',
      runId,
      prospectIds,
    );
  },
};
