import { accountTimeZone } from '@platform/accounts';
import { inTransaction, type Db, type Prisma } from '@platform/db';
import { ApiError } from '@platform/http';
import { propertyRepository } from '../../properties/index.js';
// The same SQL as `GET /immobilien/{id}/interessenten`, not a copy.
import { rankProspectsInSql } from '../matching/index.js';
import { outreachSql, type OutreachRunRow } from './outreach-sql.js';
import { recordTrefferEvents } from './treffer-events.js';

type PropertyRow = Prisma.PropertyGetPayload<object>;

/** Matches ranked and claimed per transaction. */
export const OUTREACH_PAGE = 5_000;

export interface OutreachResult {
  announced: number;
  dropped: number;
}

/**
 * The offer price a prospect is told about, per way the property is offered: a pair is announced
 * once per `change_key`, so a lower price announces again, the same price (re-activated, released)
 * does not.
 */
export const changeKeys = (property: PropertyRow) => ({
  sale: `kauf:${property.purchase_price_eur ?? '-'}`,
  rent: `miete:${property.cold_rent_eur ?? '-'}`,
});

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The model's total from the SQL's unrounded points (`Math.round`: halves up, as the model rounds). */
const scoreOf = (points: number) => Math.round(points);

/**
 * One outreach run: the account's prospects that may be reached for outreach, ranked by the
 * inquiry model in SQL, down to the account's threshold; each new pair claimed and counted
 * against the daily bound, and announced by a `prospect.matched` event in the same transaction.
 * Idempotent: a re-run (a retried job, the sweeper, a second instance) finds every pair claimed.
 * A property no longer active when the run comes is not announced.
 */
export async function runOutreach(db: Db, runId: string, now: Date): Promise<OutreachResult> {
  const run = await outreachSql.findRun(db, runId);
  const result = { announced: 0, dropped: 0 };
  if (!run || run.completed_at) return result;
  const property = await currentProperty(db, run);
  if (property?.status === 'active') {
    const settings = await outreachSql.settings(db, run.account_id);
    const timeZone = await accountTimeZone(db, run.account_id);
    if (settings.daily_limit > 0) {
      let after: { points: number; id: string } | undefined;
      for (;;) {
        const page = await rankProspectsInSql(db, property, OUTREACH_PAGE, after);
        const matches = page.filter((m) => scoreOf(m.points) >= settings.threshold);
        const claimed = await announcePage(
          db,
          run,
          property,
          matches,
          { dailyLimit: settings.daily_limit, timeZone },
          now,
        );
        result.announced += claimed.announced;
        result.dropped += claimed.dropped;
        if (matches.length < OUTREACH_PAGE) break;
        after = page[page.length - 1];
      }
    }
  }
  await outreachSql.completeRun(db, run.id, result, now);
  return result;
}

async function currentProperty(db: Db, run: OutreachRunRow): Promise<PropertyRow | undefined> {
  try {
    return await propertyRepository.find(db, run.account_id, run.property_id);
  } catch (error) {
    if (error instanceof ApiError) return undefined; // gone with its account: nothing to announce
    throw error;
  }
}

async function announcePage(
  db: Db,
  run: OutreachRunRow,
  property: PropertyRow,
  matches: { id: string; points: number }[],
  bound: { dailyLimit: number; timeZone: string },
  at: Date,
): Promise<OutreachResult> {
  if (matches.length === 0) return { announced: 0, dropped: 0 };
  return inTransaction(db, async (tx) => {
    const claimed = await outreachSql.claim(tx, {
      accountId: run.account_id,
      propertyId: run.property_id,
      runId: run.id,
      // in prospect_id order, as the claim takes its locks (never the ranking's order: see `claim`)
      matches: matches.map((m) => ({ id: m.id, score: scoreOf(m.points) })).sort(byId),
      keys: changeKeys(property),
      ...bound,
      at,
    });
    const allowed = claimed.filter((c) => c.allowed);
    const dropped = claimed.filter((c) => !c.allowed).map((c) => c.prospect_id);
    await outreachSql.markDropped(tx, run.id, dropped);
    const event = { accountId: run.account_id, propertyId: run.property_id, reason: run.reason, at };
    await recordTrefferEvents(tx, event, allowed);
    return { announced: allowed.length, dropped: dropped.length };
  });
}
