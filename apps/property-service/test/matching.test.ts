import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
const einwilligung = { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' };
const ids: Record<string, string> = {};

beforeAll(async () => {
  ctx = await startPropertyApp();
  const property = async (name: string, body: object, key = ctx.tenant.key, activate = true) => {
    ids[name] = (await ctx.send('POST', '/v1/properties', { ...validProperty(), ...body }, key)).json().id;
    if (activate) await ctx.send('POST', `/v1/properties/${ids[name]}/activate`, undefined, key);
  };
  const prospect = async (name: string, suchprofil: object, key = ctx.tenant.key) => {
    ids[name] = (
      await ctx.send(
        'POST',
        '/leads/v1/interessenten',
        { nachname: `Nachname-${name}`, email: `${name}@example.de`, einwilligung, suchprofil },
        key,
      )
    ).json().id;
  };
  await property('flat', { type: 'apartment', rooms: 3, living_area_sqm: 80, purchase_price_eur: 400000 });
  await property('house', { type: 'house', rooms: 5, living_area_sqm: 140, purchase_price_eur: 700000 });
  await property('draftFlat', { type: 'apartment', rooms: 3, purchase_price_eur: 380000 }, ctx.tenant.key, false);
  await property('theirFlat', { type: 'apartment', rooms: 3, purchase_price_eur: 400000 }, ctx.other.key);
  await prospect('perfect', { typ: ['apartment'], orte: ['Berlin'], zimmer_min: 3, kaufpreis_max_eur: 400000 });
  await prospect('tightBudget', { typ: ['apartment'], orte: ['Berlin'], zimmer_min: 3, kaufpreis_max_eur: 360000 }); // 11 % over → points lost
  await prospect('tooPoor', { typ: ['apartment'], kaufpreis_max_eur: 300000 }); // 33 % over → knockout
  await prospect('wantsHouse', { typ: ['house'] });
  await prospect('renter', { vermarktung: 'miete', kaltmiete_max_eur: 1500 });
  await prospect('inactive', { typ: ['apartment'], aktiv: false });
  await prospect('theirs', { typ: ['apartment'] }, ctx.other.key);
  await property('shop1', { type: 'commercial', rooms: 4, purchase_price_eur: 900000 });
  await property('shop2', { type: 'commercial', rooms: 2, purchase_price_eur: 300000 });
  await property('theirShop', { type: 'commercial', rooms: 3, purchase_price_eur: 500000 }, ctx.other.key);
  await prospect('shopBuyer', { typ: ['commercial'] }); // no budget, place or minimum: 100 points for both shops
  await prospect('anonymised', { typ: ['apartment'] });
  await ctx.db.prisma.prospect.update({ where: { id: ids.anonymised }, data: { anonymised_at: new Date() } });
});
afterAll(() => ctx.close());

describe('GET /leads/v1/immobilien/{id}/interessenten', () => {
  it('ranks matching prospects with active profiles, with the explanation; knockouts, inactive and other accounts never appear', async () => {
    const res = await ctx.send('GET', `/leads/v1/immobilien/${ids.flat}/interessenten`);
    expect(res.statusCode).toBe(200);
    const daten = res.json().daten as {
      interessent: { id: string };
      bewertung: { gesamt: number; kriterien: { punkte: number }[] };
    }[];
    expect(daten.map((d) => d.interessent.id)).toEqual([ids.perfect, ids.tightBudget]);
    expect(daten[0].bewertung.gesamt).toBe(100);
    expect(daten[1].bewertung.gesamt).toBeLessThan(100);
    for (const d of daten) expect(d.bewertung.kriterien.reduce((acc, k) => acc + k.punkte, 0)).toBe(d.bewertung.gesamt);
  });

  it('finds nobody for a property that is not on the market, and 404 for another account', async () => {
    expect((await ctx.send('GET', `/leads/v1/immobilien/${ids.draftFlat}/interessenten`)).json().daten).toEqual([]);
    const res = await ctx.send('GET', `/leads/v1/immobilien/${ids.theirFlat}/interessenten`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('nicht_gefunden');
  });
});

describe('GET /leads/v1/interessenten/{id}/treffer', () => {
  it('lists marketed properties matching the profile, ranked', async () => {
    const perfect = (await ctx.send('GET', `/leads/v1/interessenten/${ids.perfect}/treffer`)).json();
    expect(perfect.daten.map((d: { immobilie_id: string }) => d.immobilie_id)).toEqual([ids.flat]);
    const house = (await ctx.send('GET', `/leads/v1/interessenten/${ids.wantsHouse}/treffer`)).json();
    expect(house.daten.map((d: { immobilie_id: string }) => d.immobilie_id)).toEqual([ids.house]);
    expect((await ctx.send('GET', `/leads/v1/interessenten/${ids.renter}/treffer`)).json().daten).toEqual([]);
    expect((await ctx.send('GET', `/leads/v1/interessenten/${ids.theirs}/treffer`)).statusCode).toBe(404);
  });

  it('has no matches for an inactive or anonymised profile', async () => {
    for (const name of ['inactive', 'anonymised']) {
      const res = await ctx.send('GET', `/leads/v1/interessenten/${ids[name]}/treffer`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ daten: [], seite: { naechster_cursor: null, hat_weitere: false } });
    }
  });

  it("pages with the cursor, equal totals by id, each match with its title, status and explanation; never another account's property", async () => {
    const first = await ctx.send('GET', `/leads/v1/interessenten/${ids.shopBuyer}/treffer?limit=1`);
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.seite.hat_weitere).toBe(true);
    const second = (
      await ctx.send(
        'GET',
        `/leads/v1/interessenten/${ids.shopBuyer}/treffer?limit=1&cursor=${encodeURIComponent(page1.seite.naechster_cursor)}`,
      )
    ).json();
    expect(second.seite).toEqual({ naechster_cursor: null, hat_weitere: false });
    const daten = [...page1.daten, ...second.daten];
    expect(daten.map((d: { immobilie_id: string }) => d.immobilie_id)).toEqual([ids.shop1, ids.shop2].sort());
    for (const d of daten) {
      expect(Object.keys(d).sort()).toEqual(['bewertung', 'immobilie_id', 'status', 'titel']);
      expect(d).toMatchObject({
        titel: validProperty().title,
        status: 'active',
        bewertung: { gesamt: 100, ausgeschlossen: false, ausschlussgruende: [] },
      });
      expect(d.bewertung.kriterien.map((k: { kriterium: string }) => k.kriterium)).toEqual([
        'preis',
        'lage',
        'zimmer',
        'wohnflaeche',
      ]);
    }
    // a cursor of another list is refused
    const foreign = await ctx.send(
      'GET',
      `/leads/v1/interessenten/${ids.perfect}/treffer?limit=1&cursor=${encodeURIComponent(page1.seite.naechster_cursor)}`,
    );
    expect(foreign.statusCode).toBe(422);
  });
});

describe('paging the matches', () => {
  it('goes on after the last match of the previous page even when the matches before it change (keyset, not offset)', async () => {
    const url = `/leads/v1/immobilien/${ids.flat}/interessenten?limit=1`;
    const first = (await ctx.send('GET', url)).json();
    expect(first.daten.map((d: { interessent: { id: string } }) => d.interessent.id)).toEqual([ids.perfect]);
    // the first match leaves the ranking: an offset of 1 would now skip the next one
    await ctx.send('PATCH', `/leads/v1/interessenten/${ids.perfect}`, { suchprofil: { aktiv: false } });
    try {
      const next = (await ctx.send('GET', `${url}&cursor=${encodeURIComponent(first.seite.naechster_cursor)}`)).json();
      expect(next.daten.map((d: { interessent: { id: string } }) => d.interessent.id)).toEqual([ids.tightBudget]);
    } finally {
      await ctx.send('PATCH', `/leads/v1/interessenten/${ids.perfect}`, { suchprofil: { aktiv: true } });
    }
  });
});
