import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileHeld } from '@platform/testkit';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let propertyId: string;
let prospectId: string;

const einwilligung = { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' };

beforeAll(async () => {
  ctx = await startPropertyApp();
  propertyId = (
    await ctx.send('POST', '/v1/properties', {
      ...validProperty(),
      living_area_sqm: 64.5,
      rooms: 2,
      purchase_price_eur: 420000,
    })
  ).json().id;
  await ctx.send('POST', `/v1/properties/${propertyId}/activate`);
  prospectId = (
    await ctx.send('POST', '/leads/v1/interessenten', {
      nachname: 'Passend',
      email: 'passend@example.de',
      einwilligung,
      suchprofil: { typ: ['apartment'], orte: ['Berlin'], zimmer_min: 2, kaufpreis_max_eur: 420000 },
    })
  ).json().id;
});
afterAll(() => ctx.close());

describe('POST /leads/v1/anfragen', () => {
  it('scores an inquiry of an existing prospect, traceably, and moves the retention date', async () => {
    ctx.clock.now = new Date('2026-12-01T10:00:00Z');
    const res = await ctx.send('POST', '/leads/v1/anfragen', {
      immobilie_id: propertyId,
      interessent_id: prospectId,
      nachricht: 'Ist die Wohnung noch frei?',
    });
    expect(res.statusCode).toBe(201);
    const anfrage = res.json();
    expect(anfrage).toMatchObject({
      immobilie_id: propertyId,
      interessent_id: prospectId,
      nachricht: 'Ist die Wohnung noch frei?',
      quelle: null, // through this API, not from a portal
      bewertet_am: '2026-12-01T10:00:00.000Z',
      eingegangen_am: '2026-12-01T10:00:00.000Z',
    });
    expect(anfrage.bewertung.gesamt).toBe(100);
    expect(anfrage.bewertung.gewichtungsversion).toBe('anfrage-2026-11b');
    expect(anfrage.bewertung.kriterien.reduce((acc: number, k: { punkte: number }) => acc + k.punkte, 0)).toBe(
      anfrage.bewertung.gesamt,
    );
    expect((await ctx.send('GET', `/leads/v1/interessenten/${prospectId}`)).json().aufbewahrung_bis).toBe('2027-05-30');
    const events = await ctx.db.prisma.outboxEvent.findMany({
      where: { type: { in: ['inquiry.received', 'inquiry.scored'] } },
      orderBy: { type: 'asc' },
    });
    expect(events.map((e) => JSON.parse(e.payload).data)).toEqual([
      { inquiry_id: anfrage.id, property_id: propertyId, interessent_id: prospectId },
      { inquiry_id: anfrage.id, property_id: propertyId, score: 100 },
    ]);
    expect(events.map((e) => e.payload).join()).not.toContain('passend@example.de');
  });

  it('creates a new prospect inline and scores a knockout with its reason', async () => {
    const res = await ctx.send('POST', '/leads/v1/anfragen', {
      immobilie_id: propertyId,
      interessent: { nachname: 'Hausfan', email: 'haus@example.de', einwilligung, suchprofil: { typ: ['house'] } },
    });
    expect(res.statusCode).toBe(201);
    const anfrage = res.json();
    expect(anfrage.bewertung).toMatchObject({ gesamt: 0, ausgeschlossen: true });
    expect(anfrage.bewertung.ausschlussgruende).toEqual([
      { kriterium: 'objektart', grund: expect.stringContaining('apartment') },
    ]);
    expect((await ctx.send('GET', `/leads/v1/interessenten/${anfrage.interessent_id}`)).json().nachname).toBe(
      'Hausfan',
    );
  });

  it.each([
    [{ immobilie_id: 'x' }, [{ feld: 'interessent_id', grund: 'fehlt' }]],
    [
      { immobilie_id: 'x', interessent_id: 'a', interessent: { nachname: 'A', email: 'a@example.de', einwilligung } },
      [{ feld: 'interessent', grund: 'nicht_erlaubt' }],
    ],
    [
      { immobilie_id: 'x', interessent: { nachname: 'A', email: 'a@example.de' } },
      [{ feld: 'interessent.einwilligung', grund: 'fehlt' }],
    ],
  ])('refuses %j', async (body, details) => {
    const res = await ctx.send('POST', '/leads/v1/anfragen', body);
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual(details);
  });

  it("refuses another account's property or prospect like a missing one", async () => {
    const theirProperty = (await ctx.send('POST', '/v1/properties', validProperty(), ctx.other.key)).json().id;
    const a = await ctx.send('POST', '/leads/v1/anfragen', { immobilie_id: theirProperty, interessent_id: prospectId });
    expect(a.statusCode).toBe(404);
    expect(a.json().code).toBe('nicht_gefunden');
    const theirProspect = (
      await ctx.send(
        'POST',
        '/leads/v1/interessenten',
        { nachname: 'X', email: 'x@example.de', einwilligung },
        ctx.other.key,
      )
    ).json().id;
    expect(
      (await ctx.send('POST', '/leads/v1/anfragen', { immobilie_id: propertyId, interessent_id: theirProspect }))
        .statusCode,
    ).toBe(404);
  });
});

describe('GET /leads/v1/anfragen', () => {
  it('orders by score, filters by property, and walks the cursor completely', async () => {
    for (const [i, zimmer] of [1, 2, 3, 4, 5, 6].entries()) {
      ctx.clock.now = new Date(Date.parse('2026-12-02T00:00:00Z') + i * 1000);
      await ctx.send('POST', '/leads/v1/anfragen', {
        immobilie_id: propertyId,
        interessent: {
          nachname: `Z${zimmer}`,
          email: `z${zimmer}@example.de`,
          einwilligung,
          suchprofil: { typ: ['apartment'], zimmer_min: zimmer },
        },
      });
    }
    const all: { bewertung: { gesamt: number }; immobilie_id: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: { daten: typeof all; seite: { naechster_cursor: string | null } } = (
        await ctx.send(
          'GET',
          `/leads/v1/anfragen?immobilie_id=${propertyId}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        )
      ).json();
      all.push(...page.daten);
      cursor = page.seite.naechster_cursor;
    } while (cursor);
    const scores = all.map((a) => a.bewertung.gesamt);
    expect(all).toHaveLength(8);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(all.every((a) => a.immobilie_id === propertyId)).toBe(true);
    expect((await ctx.send('GET', '/leads/v1/anfragen?cursor=abc')).statusCode).toBe(422);
  });

  it("answers another account's inquiry with 404", async () => {
    const mine = (await ctx.send('GET', `/leads/v1/anfragen?immobilie_id=${propertyId}&limit=1`)).json().daten[0];
    expect((await ctx.send('GET', `/leads/v1/anfragen/${mine.id}`)).statusCode).toBe(200);
    const res = await ctx.send('GET', `/leads/v1/anfragen/${mine.id}`, undefined, ctx.other.key);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'nicht_gefunden', message: 'Keine Anfrage mit dieser ID.' });
  });
});

describe('POST /leads/v1/anfragen/{anfrageId}/bewertung', () => {
  it('scores again with the property as it is now, stores it with bewertet_am and emits inquiry.scored', async () => {
    const property = (
      await ctx.send('POST', '/v1/properties', {
        ...validProperty(),
        living_area_sqm: 64.5,
        rooms: 2,
        purchase_price_eur: 420000,
      })
    ).json().id;
    await ctx.send('POST', `/v1/properties/${property}/activate`);
    ctx.clock.now = new Date('2026-12-02T09:00:00Z');
    const anfrage = (
      await ctx.send('POST', '/leads/v1/anfragen', { immobilie_id: property, interessent_id: prospectId })
    ).json();
    expect(anfrage.bewertung.gesamt).toBe(100);
    // 462,000 € against a budget of 420,000 €: 10 % over a 20 % tolerance → half of Preis 40
    await ctx.send('PATCH', `/v1/properties/${property}`, { purchase_price_eur: 462000 });
    ctx.clock.now = new Date('2026-12-03T09:00:00Z');
    const res = await ctx.send('POST', `/leads/v1/anfragen/${anfrage.id}/bewertung`);
    expect(res.statusCode).toBe(200);
    const neu = res.json();
    expect(neu).toMatchObject({
      id: anfrage.id,
      bewertet_am: '2026-12-03T09:00:00.000Z',
      eingegangen_am: anfrage.eingegangen_am,
    });
    expect(neu.bewertung.gesamt).toBe(80);
    expect(neu.bewertung.kriterien.find((k: { kriterium: string }) => k.kriterium === 'preis')).toMatchObject({
      punkte: 20,
      ergebnis: 'abweichend',
    });
    expect((await ctx.send('GET', `/leads/v1/anfragen/${anfrage.id}`)).json()).toEqual(neu);
    const scored = await ctx.db.prisma.outboxEvent.findMany({
      where: { type: 'inquiry.scored' },
      orderBy: { created_at: 'asc' },
    });
    expect(scored.map((e) => JSON.parse(e.payload).data).filter((d) => d.inquiry_id === anfrage.id)).toEqual([
      { inquiry_id: anfrage.id, property_id: property, score: 100 },
      { inquiry_id: anfrage.id, property_id: property, score: 80 },
    ]);
  });

  it("answers another account's inquiry with 404 and changes nothing", async () => {
    const mine = (await ctx.send('GET', '/leads/v1/anfragen?limit=1')).json().daten[0];
    const res = await ctx.send('POST', `/leads/v1/anfragen/${mine.id}/bewertung`, undefined, ctx.other.key);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'nicht_gefunden', message: 'Keine Anfrage mit dieser ID.' });
    expect((await ctx.send('GET', `/leads/v1/anfragen/${mine.id}`)).json()).toEqual(mine);
  });
});

describe('an inquiry racing an erasure', () => {
  it('waits for an erasure in progress and then refuses with 409, so no message outlives the erasure', async () => {
    const property = (await ctx.send('POST', '/v1/properties', validProperty())).json().id;
    await ctx.send('POST', `/v1/properties/${property}/activate`);
    const prospect = (
      await ctx.send('POST', '/leads/v1/interessenten', {
        nachname: 'Wettlauf',
        email: 'wettlauf@example.de',
        einwilligung,
      })
    ).json().id;
    // An erasure that has written but not committed; a plain read would still see the prospect as it was.
    const { result: res } = await whileHeld(
      ctx.db,
      (tx) =>
        tx.$executeRaw`UPDATE prospects SET last_name = NULL, email = NULL, anonymised_at = now() WHERE id = ${prospect}`,
      () =>
        ctx.send('POST', '/leads/v1/anfragen', {
          immobilie_id: property,
          interessent_id: prospect,
          nachricht: 'Meine Nummer ist 0171 000000',
        }),
    );
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe('konflikt');
    expect(await ctx.db.prisma.inquiry.count({ where: { prospect_id: prospect } })).toBe(0);
  });
});
