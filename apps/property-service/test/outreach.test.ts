import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@platform/testkit';
import { SWEEP_OUTREACH_JOB } from '../src/leads/outreach/index.js';
import { eventData, startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';
import {
  outreachRunsOf,
  prospectWith,
  runOpenOutreach,
  runOutreachJob,
  SUCHPROFIL,
  TREFFER,
} from './outreach-helpers.js';

let ctx: PropertyTestContext;
const ids: Record<string, string> = {};
let flat: string;

const treffer = async () => (await eventData(ctx, TREFFER)).filter((d) => d.property_id === flat);
const announcedTo = async () => (await treffer()).map((d) => d.interessent_id as string).sort();

beforeAll(async () => {
  ctx = await startPropertyApp();
  // The account asks for 80 points: a profile that misses the location (75) stays below.
  const put = await ctx.send('PUT', '/leads/v1/einstellungen/treffer', { treffer_schwelle: 80, treffer_pro_tag: 5 });
  expect(put.statusCode).toBe(200);
  ids.matching = await prospectWith(ctx, 'matching');
  ids.secondMatching = await prospectWith(ctx, 'secondMatching', { ...SUCHPROFIL, kaufpreis_max_eur: 450000 });
  ids.otherType = await prospectWith(ctx, 'otherType', { ...SUCHPROFIL, typ: ['house'] });
  ids.belowThreshold = await prospectWith(ctx, 'belowThreshold', { ...SUCHPROFIL, orte: ['Hamburg'] });
  ids.withdrawn = await prospectWith(ctx, 'withdrawn');
  ids.restricted = await prospectWith(ctx, 'restricted');
  ids.objecting = await prospectWith(ctx, 'objecting');
  ids.otherAccount = await prospectWith(ctx, 'otherAccount', SUCHPROFIL, ctx.other.key);
  const consents = await ctx.send('GET', `/leads/v1/interessenten/${ids.withdrawn}/einwilligungen`);
  await ctx.send(
    'POST',
    `/leads/v1/interessenten/${ids.withdrawn}/einwilligungen/${consents.json().daten[0].id}/widerruf`,
  );
  await ctx.send('POST', `/leads/v1/interessenten/${ids.restricted}/einschraenkung`);
  await ctx.send('POST', `/leads/v1/interessenten/${ids.objecting}/widerspruch`);
  flat = (
    await ctx.send('POST', '/v1/properties', {
      ...validProperty(),
      type: 'apartment',
      rooms: 3,
      living_area_sqm: 80,
      purchase_price_eur: 400000,
    })
  ).json().id;
});
afterAll(() => ctx.close());

describe('Treffer: outreach when a property goes on the market or gets cheaper', () => {
  it('announces each matching, reachable prospect of the account above its threshold once, through the worker', async () => {
    expect(await outreachRunsOf(ctx, flat)).toHaveLength(0); // a draft announces nothing
    const stop = await ctx.startJobWorker();
    try {
      expect((await ctx.send('POST', `/v1/properties/${flat}/activate`)).statusCode).toBe(200);
      await until(async () => ((await outreachRunsOf(ctx, flat))[0]?.completed_at ? true : undefined), 20_000);
    } finally {
      await stop();
    }
    expect(await announcedTo()).toEqual([ids.matching, ids.secondMatching].sort());
    const byProspect = Object.fromEntries((await treffer()).map((d) => [d.interessent_id, d]));
    expect(byProspect[ids.matching]).toEqual({
      property_id: flat,
      interessent_id: ids.matching,
      score: 100,
      anlass: 'aktivierung',
    });
    expect(Object.keys(byProspect[ids.secondMatching]).sort()).toEqual(
      ['anlass', 'interessent_id', 'property_id', 'score'], // ids only, nothing personal
    );
  });

  it('announces nothing more on a re-run of the job or when the property is active again at the same price', async () => {
    const [run] = await outreachRunsOf(ctx, flat);
    // As if the job ran again after its completion was lost (a retry, the sweeper, a second instance).
    await ctx.db.query('UPDATE outreach_runs SET completed_at = NULL WHERE id = $1', [run.id]);
    const again = await runOutreachJob(ctx, run.id);
    expect(again).toMatchObject({ announced: 0, dropped: 0 });
    await ctx.send('POST', `/v1/properties/${flat}/reserve`);
    await ctx.send('POST', `/v1/properties/${flat}/release`);
    expect(await runOpenOutreach(ctx, flat)).toEqual({ announced: 0, dropped: 0 });
    expect(await treffer()).toHaveLength(2);
  });

  it('announces again when the price drops, not when it rises or another field changes', async () => {
    await ctx.send('PATCH', `/v1/properties/${flat}`, { purchase_price_eur: 450000 });
    await ctx.send('PATCH', `/v1/properties/${flat}`, { title: 'Helle Dreizimmerwohnung' });
    expect((await outreachRunsOf(ctx, flat)).filter((r) => r.reason === 'preissenkung')).toHaveLength(0);
    expect((await ctx.send('PATCH', `/v1/properties/${flat}`, { purchase_price_eur: 380000 })).statusCode).toBe(200);
    expect((await outreachRunsOf(ctx, flat)).filter((r) => r.reason === 'preissenkung')).toHaveLength(1);
    expect(await runOpenOutreach(ctx, flat)).toEqual({ announced: 2, dropped: 0 });
    const drops = (await treffer()).filter((d) => d.anlass === 'preissenkung');
    expect(drops.map((d) => d.interessent_id).sort()).toEqual([ids.matching, ids.secondMatching].sort());
  });

  it('announces nothing for a property no longer active when its run comes, and the lower price once it is released', async () => {
    await ctx.send('PATCH', `/v1/properties/${flat}`, { purchase_price_eur: 370000 });
    await ctx.send('POST', `/v1/properties/${flat}/reserve`);
    expect(await runOpenOutreach(ctx, flat)).toEqual({ announced: 0, dropped: 0 });
    // Released, it is offered at the lower price nobody has heard of yet.
    await ctx.send('POST', `/v1/properties/${flat}/release`);
    expect(await runOpenOutreach(ctx, flat)).toEqual({ announced: 2, dropped: 0 });
  });
});

describe('Treffer: a run whose job never came', () => {
  it('is run by the sweeper once it is 2 minutes old, not before', async () => {
    const sweep = () =>
      SWEEP_OUTREACH_JOB.run(
        { db: ctx.db.prisma, now: ctx.clock.now, storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs },
        {},
      );
    ctx.clock.now = new Date();
    const house = (
      await ctx.send('POST', '/v1/properties', {
        ...validProperty(),
        rooms: 3,
        living_area_sqm: 80,
        purchase_price_eur: 390000,
      })
    ).json().id;
    await ctx.send('POST', `/v1/properties/${house}/activate`); // no worker runs: the job waits in Redis
    expect(await sweep()).toMatchObject({ runs: 0, announced: 0 });
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 3 * 60_000);
    expect(await sweep()).toMatchObject({ runs: 1, announced: 2 });
    expect((await outreachRunsOf(ctx, house))[0].completed_at).not.toBeNull();
    expect(await sweep()).toMatchObject({ runs: 0, announced: 0 });
  });
});

describe('Treffer settings (/leads/v1/einstellungen/treffer)', () => {
  it('answers the defaults until the account sets its own, and each account its own', async () => {
    const other = await ctx.send('GET', '/leads/v1/einstellungen/treffer', undefined, ctx.other.key);
    expect(other.json()).toEqual({ treffer_schwelle: 70, treffer_pro_tag: 3 });
    const own = await ctx.send('GET', '/leads/v1/einstellungen/treffer');
    expect(own.json()).toEqual({ treffer_schwelle: 80, treffer_pro_tag: 5 });
  });

  it('refuses values out of range or missing, in the German dialect', async () => {
    const res = await ctx.send('PUT', '/leads/v1/einstellungen/treffer', { treffer_schwelle: 101 });
    expect(res.statusCode).toBe(422);
    const felder = (res.json().details as { feld: string }[]).map((d) => d.feld).sort();
    expect(felder).toEqual(['treffer_pro_tag', 'treffer_schwelle']);
    expect((await ctx.send('GET', '/leads/v1/einstellungen/treffer')).json().treffer_schwelle).toBe(80);
  });
});

describe('Treffer: a price given to an active property that had none', () => {
  it('announces it as offered anew (a new price is an offer change that matters)', async () => {
    ctx.clock.now = new Date('2027-01-15T10:00:00Z'); // a day of its own for the daily bound
    const { purchase_price_eur: _unpriced, ...withoutPrice } = validProperty();
    const body = { ...withoutPrice, type: 'apartment', rooms: 3, living_area_sqm: 80 };
    const priceless = (await ctx.send('POST', '/v1/properties', body)).json().id as string;
    expect((await ctx.send('POST', `/v1/properties/${priceless}/activate`)).statusCode).toBe(200);
    await runOpenOutreach(ctx, priceless);
    expect(await outreachRunsOf(ctx, priceless)).toHaveLength(1);
    ctx.clock.now = new Date('2027-01-15T10:05:00Z'); // the runs then list in their order
    const patched = await ctx.send('PATCH', `/v1/properties/${priceless}`, { purchase_price_eur: 400000 });
    expect(patched.statusCode).toBe(200);
    const runs = await outreachRunsOf(ctx, priceless);
    expect(runs.map((r) => r.reason)).toEqual(['aktivierung', 'aktivierung']);
    await runOpenOutreach(ctx, priceless);
    const announced = (await eventData(ctx, TREFFER)).filter(
      (d) => d.property_id === priceless && d.interessent_id === ids.matching,
    );
    expect(announced.length).toBeGreaterThanOrEqual(1);
    const [, priced] = await outreachRunsOf(ctx, priceless);
    expect(priced.announced).toBeGreaterThanOrEqual(1);
  });
});
