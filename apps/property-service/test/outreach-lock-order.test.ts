import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilLockWaiters, whileHeld } from '@platform/testkit';
import { activeProperty, eventData, startPropertyApp, type PropertyTestContext } from './helpers.js';
import { outreachRunsOf, prospectWith, runOutreachJob, SUCHPROFIL, TREFFER } from './outreach-helpers.js';

let ctx: PropertyTestContext;

const HOUSE = { type: 'house', rooms: 3, living_area_sqm: 80, purchase_price_eur: 400000 };
const houseIn = (city: string, postalCode: string) => ({
  ...HOUSE,
  address: { street: 'Markt 1', postal_code: postalCode, city },
});

beforeAll(async () => {
  ctx = await startPropertyApp();
  const put = await ctx.send('PUT', '/leads/v1/einstellungen/treffer', { treffer_schwelle: 70, treffer_pro_tag: 5 });
  expect(put.statusCode).toBe(200);
});
afterAll(() => ctx.close());

describe('Treffer: concurrent runs of one account take their locks in one order', () => {
  it('two runs ranking shared prospects in opposite order both complete, each pair announced once', async () => {
    ctx.clock.now = new Date('2026-11-30T10:00:00Z');
    // Each prospect fits one house best (100) and the other less (75, the place missed).
    const berliner = await prospectWith(ctx, 'berliner', { ...SUCHPROFIL, typ: ['house'], orte: ['Berlin'] });
    const dresdner = await prospectWith(ctx, 'dresdner', { ...SUCHPROFIL, typ: ['house'], orte: ['Dresden'] });
    const berlin = await activeProperty(ctx, ctx.tenant.key, houseIn('Berlin', '10115'));
    const dresden = await activeProperty(ctx, ctx.tenant.key, houseIn('Dresden', '01067'));
    // An account of realistic size (profiles paused, never ranked): the claim then looks the ranked
    // ids up one by one, in the order given, as in production, not in the table's own order.
    await ctx.db.query(
      `INSERT INTO prospects
       SELECT (jsonb_populate_record(NULL::prospects, to_jsonb(p) || jsonb_build_object('id', 'int_filler' || g, 'profile_active', false))).*
       FROM prospects AS p, generate_series(1, 2000) AS g WHERE p.id = $1`,
      [berliner],
    );
    await ctx.db.query('ANALYZE prospects');
    const [lower] = [berliner, dresdner].sort();
    // `first` ranks the lower prospect id first, `second` the other one.
    const [first, second] = lower === berliner ? [berlin, dresden] : [dresden, berlin];
    const runOf = async (property: string) => runOutreachJob(ctx, (await outreachRunsOf(ctx, property))[0].id);
    await ctx.db.query(
      "INSERT INTO outreach_daily_counts (account_id, prospect_id, day, announced) VALUES ($1, $2, '2026-11-30', 0)",
      [ctx.tenant.accountId, lower],
    );
    // The lower prospect's counter locked elsewhere: `first` waits on it; `second` starts after
    // and waits on it too, having already counted what it ranks first unless locks go by id.
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRawUnsafe('SELECT 1 FROM outreach_daily_counts WHERE prospect_id = $1 FOR UPDATE', lower),
      async () => {
        const runs = [runOf(first)];
        await untilLockWaiters(ctx.db, 1);
        runs.push(runOf(second));
        return Promise.allSettled(runs);
      },
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual([
      'fulfilled',
      'fulfilled',
    ]);
    const pairs = (await eventData(ctx, TREFFER)).map((d) => `${d.property_id}/${d.interessent_id}`).sort();
    expect(pairs).toEqual(
      [`${berlin}/${berliner}`, `${berlin}/${dresdner}`, `${dresden}/${dresdner}`, `${dresden}/${berliner}`].sort(),
    );
  });

  it('locks the counters in prospect id order, not in the ranking: the lower id first, though ranked second', async () => {
    ctx.clock.now = new Date('2026-12-01T10:00:00Z');
    const ranked2nd = await prospectWith(ctx, 'zweiter', { ...SUCHPROFIL, typ: ['house'], orte: ['Dresden'] });
    ctx.clock.now = new Date('2026-12-01T10:01:00Z'); // a later id: ranked first, its id the higher one
    const ranked1st = await prospectWith(ctx, 'erster', { ...SUCHPROFIL, typ: ['house'], orte: ['Berlin'] });
    expect(ranked2nd < ranked1st).toBe(true);
    const house = await activeProperty(ctx, ctx.tenant.key, houseIn('Berlin', '10115'));
    const [run] = await outreachRunsOf(ctx, house);
    for (const prospect of [ranked1st, ranked2nd])
      await ctx.db.query(
        "INSERT INTO outreach_daily_counts (account_id, prospect_id, day, announced) VALUES ($1, $2, '2026-12-01', 0)",
        [ctx.tenant.accountId, prospect],
      );
    const lockedNow = (prospect: string) =>
      ctx.db.query('SELECT 1 FROM outreach_daily_counts WHERE prospect_id = $1 FOR UPDATE SKIP LOCKED', [prospect]);
    // The best-ranked prospect's counter locked elsewhere: the run waits on it, and must already
    // hold the other one's (the lower id), as every claim takes them in the same order.
    let pending: Promise<unknown> | undefined;
    let free: unknown[] = [];
    await ctx.db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe('SELECT 1 FROM outreach_daily_counts WHERE prospect_id = $1 FOR UPDATE', ranked1st);
        pending = runOutreachJob(ctx, run.id);
        expect(await untilLockWaiters(ctx.db, 1)).toBe(1);
        free = await lockedNow(ranked2nd);
      },
      { timeout: 10_000 },
    );
    expect(free).toEqual([]);
    expect(await pending).toMatchObject({ dropped: 0 });
    const announced = (await eventData(ctx, TREFFER)).filter((d) => d.property_id === house);
    expect(announced.map((d) => d.interessent_id)).toEqual(expect.arrayContaining([ranked1st, ranked2nd]));
  });
});
