import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
const ids: Record<string, string> = {};
const suchprofil = { typ: ['apartment'], orte: ['Berlin'], zimmer_min: 3, kaufpreis_max_eur: 400000 };

/** The first consent record of the prospect (its einwilligung). */
const firstConsent = async (id: string) =>
  (await ctx.send('GET', `/leads/v1/interessenten/${id}/einwilligungen`)).json().daten[0].id as string;

beforeAll(async () => {
  ctx = await startPropertyApp();
  ids.flat = (
    await ctx.send('POST', '/v1/properties', {
      ...validProperty(),
      type: 'apartment',
      rooms: 3,
      living_area_sqm: 80,
      purchase_price_eur: 400000,
    })
  ).json().id;
  await ctx.send('POST', `/v1/properties/${ids.flat}/activate`);
  for (const name of ['consenting', 'withdrawn', 'restricted', 'objecting', 'awaitingConfirmation']) {
    ids[name] = (
      await ctx.send('POST', '/leads/v1/interessenten', {
        nachname: `Nachname-${name}`, // not the bare word: `restricted` also stands in log lines (prospect.restricted)
        email: `${name}@example.de`,
        einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' },
        suchprofil,
      })
    ).json().id;
  }
  await ctx.send(
    'POST',
    `/leads/v1/interessenten/${ids.withdrawn}/einwilligungen/${await firstConsent(ids.withdrawn)}/widerruf`,
  );
  await ctx.send('POST', `/leads/v1/interessenten/${ids.restricted}/einschraenkung`);
  await ctx.send('POST', `/leads/v1/interessenten/${ids.objecting}/widerspruch`);
  // its only standing marketing consent is one from the website form that is not yet confirmed
  // (given after the withdrawal: a marketing withdrawal ends every marketing consent standing then)
  const waiting = ids.awaitingConfirmation;
  await ctx.send('POST', `/leads/v1/interessenten/${waiting}/einwilligungen/${await firstConsent(waiting)}/widerruf`);
  ctx.clock.now = new Date(ctx.clock.now.getTime() + 60_000);
  ids.webConsent = (
    await ctx.send('POST', `/leads/v1/interessenten/${waiting}/einwilligungen`, {
      zweck: 'marketing',
      quelle: 'website_formular',
      erteilt_am: ctx.clock.now.toISOString(),
    })
  ).json().id;
  // a second valid consent, then the newer one withdrawn: the older one ends with it (Art. 7(3))
  ids.twoConsents = (
    await ctx.send('POST', '/leads/v1/interessenten', {
      nachname: 'twoConsents',
      email: 'two@example.de',
      einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' },
      suchprofil,
    })
  ).json().id;
  const newer = (
    await ctx.send('POST', `/leads/v1/interessenten/${ids.twoConsents}/einwilligungen`, {
      zweck: 'marketing',
      quelle: 'telefon',
      erteilt_am: '2026-11-03T10:00:00Z',
    })
  ).json().id;
  await ctx.send('POST', `/leads/v1/interessenten/${ids.twoConsents}/einwilligungen/${newer}/widerruf`);
});
afterAll(() => ctx.close());

const matchedIds = async () =>
  (
    (await ctx.send('GET', `/leads/v1/immobilien/${ids.flat}/interessenten`)).json().daten as {
      interessent: { id: string };
    }[]
  ).map((d) => d.interessent.id);
const propertiesFor = async (name: string) =>
  (await ctx.send('GET', `/leads/v1/interessenten/${ids[name]}/treffer`)).json().daten as unknown[];

describe('matching only finds prospects reachable for outreach', () => {
  it('leaves out withdrawn (every marketing record), restricted, objecting and unconfirmed double-opt-in prospects, in both directions', async () => {
    const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    expect((await matchedIds()).map((id) => names[id])).toEqual(['consenting']);
    expect(await propertiesFor('consenting')).toHaveLength(1);
    for (const name of ['withdrawn', 'restricted', 'objecting', 'awaitingConfirmation', 'twoConsents'])
      expect(await propertiesFor(name)).toEqual([]);
  });

  it('finds them again once the double opt-in is confirmed or the restriction lifted', async () => {
    const waiting = ids.awaitingConfirmation;
    await ctx.send('POST', `/leads/v1/interessenten/${waiting}/einwilligungen/${ids.webConsent}/bestaetigung`);
    await ctx.send('DELETE', `/leads/v1/interessenten/${ids.restricted}/einschraenkung`);
    expect((await matchedIds()).sort()).toEqual([ids.consenting, ids.awaitingConfirmation, ids.restricted].sort());
    expect(await propertiesFor('restricted')).toHaveLength(1);
  });

  it("keeps every prospect's mirror, which matching reads, equal to its consent records", async () => {
    const differing = await ctx.db.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT p.id FROM prospects AS p
       WHERE p.marketing_consent_valid <> EXISTS (SELECT 1 FROM prospect_consents AS c
         WHERE c.prospect_id = p.id AND c.purpose = 'marketing' AND c.withdrawn_at IS NULL
           AND (NOT c.requires_confirmation OR c.confirmed_at IS NOT NULL))`,
    );
    expect(differing).toEqual([]);
    expect(Object.keys(ids).length).toBeGreaterThan(4);
  });
});
