import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileHeld } from '@platform/testkit';
import { SWEEP_OUTREACH_JOB } from '../src/leads/outreach/index.js';
import { activeProperty, eventData, startPropertyApp, type PropertyTestContext } from './helpers.js';
import {
  outreachRunsOf,
  prospectWith,
  runOpenOutreach,
  runOutreachJob,
  SUCHPROFIL,
  TREFFER,
} from './outreach-helpers.js';

let ctx: PropertyTestContext;

const FLAT = { type: 'apartment', rooms: 3, living_area_sqm: 80, purchase_price_eur: 400000 };
const HOUSE = { ...FLAT, type: 'house' };

const announcedTo = async (prospectId: string) =>
  (await eventData(ctx, TREFFER)).filter((d) => d.interessent_id === prospectId);

const setBound = async (perDay: number) =>
  expect(
    (await ctx.send('PUT', '/leads/v1/einstellungen/treffer', { treffer_schwelle: 70, treffer_pro_tag: perDay }))
      .statusCode,
  ).toBe(200);

beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

describe('Treffer: at most `treffer_pro_tag` announcements per prospect and day of the account', () => {
  it('drops the matches over the bound (recorded, not announced, not made up later by a re-run)', async () => {
    await setBound(2);
    ctx.clock.now = new Date('2026-11-28T09:00:00Z');
    const prospect = await prospectWith(ctx, 'busy');
    const properties = [];
    for (let i = 0; i < 3; i++) properties.push(await activeProperty(ctx, ctx.tenant.key, FLAT));
    const results = [];
    for (const id of properties) results.push(await runOpenOutreach(ctx, id));
    expect(results).toEqual([
      { announced: 1, dropped: 0 },
      { announced: 1, dropped: 0 },
      { announced: 0, dropped: 1 },
    ]);
    // the test clock stands still: the events share their time, so compare them as sets
    expect((await announcedTo(prospect)).map((d) => d.property_id).sort()).toEqual(properties.slice(0, 2).sort());
    const [third] = await outreachRunsOf(ctx, properties[2]);
    expect(third).toMatchObject({ announced: 0, dropped: 1 });
    await ctx.db.query('UPDATE outreach_runs SET completed_at = NULL WHERE id = $1', [third.id]);
    expect(await runOutreachJob(ctx, third.id)).toMatchObject({ announced: 0, dropped: 0 });
  });

  it("counts per day of the account's time zone (Europe/Berlin), not per UTC day", async () => {
    await setBound(1);
    const prospect = await prospectWith(ctx, 'lateEvening', { ...SUCHPROFIL, orte: ['Spandau'] });
    const spandau = { ...FLAT, address: { street: 'Breite Straße 1', postal_code: '13597', city: 'Spandau' } };
    ctx.clock.now = new Date('2026-11-28T22:30:00Z'); // 23:30 in Berlin
    const evening = await activeProperty(ctx, ctx.tenant.key, spandau);
    await runOpenOutreach(ctx, evening);
    ctx.clock.now = new Date('2026-11-28T23:30:00Z'); // still the 28th in UTC, the 29th in Berlin
    const night = await activeProperty(ctx, ctx.tenant.key, spandau);
    await runOpenOutreach(ctx, night);
    expect((await announcedTo(prospect)).map((d) => d.property_id)).toEqual([evening, night]);
  });

  it('holds with two runs at once: the second waits for the first and finds the bound reached', async () => {
    await setBound(1);
    ctx.clock.now = new Date('2026-11-30T10:00:00Z');
    const prospect = await prospectWith(ctx, 'wanted', { ...SUCHPROFIL, typ: ['house'] });
    const houses = [await activeProperty(ctx, ctx.tenant.key, HOUSE), await activeProperty(ctx, ctx.tenant.key, HOUSE)];
    const runs = await Promise.all(houses.map(async (id) => (await outreachRunsOf(ctx, id))[0].id));
    // The prospect's counter of the day written but not committed: both runs must wait on it.
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) =>
        tx.$executeRawUnsafe(
          "INSERT INTO outreach_daily_counts (account_id, prospect_id, day, announced) VALUES ($1, $2, '2026-11-30', 0)",
          ctx.tenant.accountId,
          prospect,
        ),
      () => Promise.all(runs.map((id) => runOutreachJob(ctx, id))),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => r.announced as number).reduce((a, b) => a + b)).toBe(1);
    expect(await announcedTo(prospect)).toHaveLength(1);
  });

  it('announces each pair once when two instances run the same change at once', async () => {
    await setBound(5);
    ctx.clock.now = new Date('2026-11-30T12:00:00Z');
    const land = { typ: ['land'], orte: ['Dresden'], zimmer_min: 3, kaufpreis_max_eur: 400000 };
    const [claimedElsewhere, twin] = [await prospectWith(ctx, 'twinA', land), await prospectWith(ctx, 'twinB', land)];
    const plot = await activeProperty(ctx, ctx.tenant.key, {
      ...FLAT,
      type: 'land',
      address: { street: 'Elbufer 2', postal_code: '01067', city: 'Dresden' },
    });
    const [run] = await outreachRunsOf(ctx, plot);
    // One pair claimed by a third instance, not yet committed: both runs of the change wait on it.
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) =>
        tx.$executeRawUnsafe(
          `INSERT INTO outreach_announcements (account_id, property_id, prospect_id, change_key, run_id, score, announced, created_at)
           VALUES ($1, $2, $3, 'kauf:400000', 'outr_elsewhere', 100, true, now())`,
          ctx.tenant.accountId,
          plot,
          claimedElsewhere,
        ),
      () => Promise.all([runOutreachJob(ctx, run.id), runOutreachJob(ctx, run.id)]),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => r.announced as number).reduce((a, b) => a + b)).toBe(1);
    const events = (await eventData(ctx, TREFFER)).filter((d) => d.property_id === plot);
    expect(events.map((d) => d.interessent_id)).toEqual([twin]);
  });

  it('announces nothing while the bound is 0', async () => {
    await setBound(0);
    ctx.clock.now = new Date('2026-12-01T10:00:00Z');
    const prospect = await prospectWith(ctx, 'quiet', { ...SUCHPROFIL, typ: ['house'], orte: ['Potsdam'] });
    const house = await activeProperty(ctx, ctx.tenant.key, {
      ...HOUSE,
      address: { street: 'Am Kanal 3', postal_code: '14467', city: 'Potsdam' },
    });
    expect(await runOpenOutreach(ctx, house)).toEqual({ announced: 0, dropped: 0 });
    expect(await announcedTo(prospect)).toHaveLength(0);
  });

  it('has its counters of days that are over removed by the sweeper, those of today and yesterday kept', async () => {
    const days = async () =>
      (
        await ctx.db.query<{ day: string }>(
          "SELECT DISTINCT to_char(day, 'YYYY-MM-DD') AS day FROM outreach_daily_counts ORDER BY 1",
        )
      ).map((r) => r.day);
    expect(await days()).toEqual(['2026-11-28', '2026-11-29', '2026-11-30']);
    ctx.clock.now = new Date('2026-12-01T08:00:00Z');
    const sweep = await SWEEP_OUTREACH_JOB.run(
      { db: ctx.db.prisma, now: ctx.clock.now, storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs },
      {},
    );
    expect(sweep.pruned_daily_counts).toBeGreaterThan(0);
    expect(await days()).toEqual(['2026-11-29', '2026-11-30']);
  });
});

describe('Treffer and a prospect being forgotten', () => {
  it('an erasure committing while a run claims the prospect leaves nothing of them: the claim waits, then skips them', async () => {
    await setBound(5);
    ctx.clock.now = new Date('2026-12-02T10:00:00Z');
    const prospect = await prospectWith(ctx, 'forgotten', { ...SUCHPROFIL, typ: ['house'] });
    const house = await activeProperty(ctx, ctx.tenant.key, HOUSE);
    const [run] = await outreachRunsOf(ctx, house);
    // The erasure's change of the prospect's row, not committed yet when the run ranks them as a match.
    const { waited } = await whileHeld(
      ctx.db,
      (tx) =>
        tx.$executeRawUnsafe(
          'UPDATE prospects SET anonymised_at = $2, profile_active = false WHERE id = $1',
          prospect,
          ctx.clock.now,
        ),
      () => runOutreachJob(ctx, run.id),
    );
    expect(waited).toBe(1);
    expect(await announcedTo(prospect)).toEqual([]);
    const rows = await ctx.db.query(
      `SELECT prospect_id FROM outreach_announcements WHERE prospect_id = $1
       UNION ALL SELECT prospect_id FROM outreach_daily_counts WHERE prospect_id = $1`,
      [prospect],
    );
    expect(rows).toEqual([]);
  });

  it.each([
    ['a restriction', 'restricted_at = now()'],
    ['a withdrawal of the marketing consent', 'marketing_consent_valid = false'],
    ['an objection', 'objected_at = now(), marketing_consent_valid = false'],
  ])(
    '%s committing while a run claims the prospect: the claim waits, then does not announce them',
    async (_, change) => {
      await setBound(5);
      ctx.clock.now = new Date('2026-12-03T10:00:00Z');
      const prospect = await prospectWith(ctx, 'unreachable', { ...SUCHPROFIL, typ: ['house'] });
      const house = await activeProperty(ctx, ctx.tenant.key, HOUSE);
      const [run] = await outreachRunsOf(ctx, house);
      // The change of the prospect's row (as its operation writes it), not committed yet when the run ranks them.
      const { waited } = await whileHeld(
        ctx.db,
        (tx) => tx.$executeRawUnsafe(`UPDATE prospects SET ${change} WHERE id = $1`, prospect),
        () => runOutreachJob(ctx, run.id),
      );
      expect(waited).toBe(1);
      expect(await announcedTo(prospect)).toEqual([]);
    },
  );
});
