import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, createTenant } from '@platform/testkit';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';
import { propertyDescriptor } from '../src/descriptor.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const prospect = () => ({
  vorname: 'Erika',
  nachname: 'Mustermann',
  email: 'erika@example.de',
  telefon: '+49 30 1234567',
  einwilligung: { zweck: 'Kontaktaufnahme zu Immobilienangeboten', erteilt_am: '2026-11-01T10:00:00Z' },
  suchprofil: { typ: ['apartment'], orte: ['Berlin'], zimmer_min: 2, kaufpreis_max_eur: 450000 },
});

describe('POST /leads/v1/interessenten', () => {
  it('creates a prospect with id, aufbewahrung_bis (180 days) and angelegt_am', async () => {
    ctx.clock.now = new Date('2026-11-22T09:30:00Z');
    const res = await ctx.send('POST', '/leads/v1/interessenten', prospect());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.stringMatching(/^int_/),
      vorname: 'Erika',
      nachname: 'Mustermann',
      email: 'erika@example.de',
      telefon: '+49 30 1234567',
      einwilligung: { zweck: 'Kontaktaufnahme zu Immobilienangeboten', erteilt_am: '2026-11-01T10:00:00.000Z' },
      suchprofil: {
        vermarktung: 'kauf',
        typ: ['apartment'],
        orte: ['Berlin'],
        zimmer_min: 2,
        kaufpreis_max_eur: 450000,
        kaltmiete_max_eur: null,
        wohnflaeche_min_qm: null,
        aktiv: true,
      },
      aufbewahrung_bis: '2027-05-21',
      angelegt_am: '2026-11-22T09:30:00.000Z',
      aktualisiert_am: '2026-11-22T09:30:00.000Z',
      anonymisiert: false,
      eingeschraenkt_seit: null,
      widerspruch_seit: null,
    });
  });

  it('refuses a prospect without einwilligung: 422 with a detail whose feld is einwilligung', async () => {
    const { einwilligung: _e, ...without } = prospect();
    const res = await ctx.send('POST', '/leads/v1/interessenten', without);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'validierung_fehlgeschlagen',
      message: expect.any(String),
      details: [{ feld: 'einwilligung', grund: 'fehlt' }],
    });
  });

  it.each([
    [{ email: 'not-an-address' }, { feld: 'email', grund: 'ungueltiges_format', vorgabe: { format: 'email' } }],
    [
      { suchprofil: { typ: ['castle'] } },
      {
        feld: 'suchprofil.typ.0',
        grund: 'nicht_erlaubt',
        vorgabe: { erlaubt: ['apartment', 'house', 'land', 'commercial', 'parking'] },
      },
    ],
    [{ nachname: 5 }, { feld: 'nachname', grund: 'ungueltiger_typ', vorgabe: { typ: 'string' } }],
    [{ hobby: 'Golf' }, { feld: 'hobby', grund: 'unbekanntes_feld' }],
    [
      { aufbewahrung_bis: '2099-01-01' },
      { feld: 'aufbewahrung_bis', grund: 'nicht_erlaubt', vorgabe: { nur_lesen: true } },
    ],
  ])('refuses %j in German', async (change, detail) => {
    const res = await ctx.send('POST', '/leads/v1/interessenten', { ...prospect(), ...change });
    expect(res.statusCode).toBe(422);
    // A detail with a constraint (vorgabe) also says it in words (meldung; tested in packages/http).
    expect(res.json().details).toEqual(['vorgabe' in detail ? { ...detail, meldung: expect.any(String) } : detail]);
  });

  it('answers a missing scope with 403 scope_fehlt and the scope in details[].feld', async () => {
    const { key } = await addKey(ctx.db.prisma, ctx.tenant, { service: propertyDescriptor, scopes: ['leads:read'] });
    const res = await ctx.send('POST', '/leads/v1/interessenten', prospect(), key);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'scope_fehlt',
      message: 'Dieser Vorgang erfordert den Scope leads:write.',
      details: [{ feld: 'leads:write', grund: 'nicht_erteilt' }],
    });
  });

  it('answers without a key in German', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/leads/v1/interessenten' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'api_key_fehlt', message: 'Der Header apikey fehlt.' });
  });
});

describe('GET /leads/v1/interessenten', () => {
  it('pages with {daten, seite}: default 25, limit 0 and 101 refused, the cursor walk complete', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) {
      ctx.clock.now = new Date(Date.parse('2026-10-01T00:00:00Z') + i * 1000);
      const body = i % 3 === 0 ? { ...prospect(), suchprofil: { ...prospect().suchprofil, aktiv: false } } : prospect();
      ids.add((await ctx.send('POST', '/leads/v1/interessenten', body, tenant.key)).json().id);
    }
    const first = (await ctx.send('GET', '/leads/v1/interessenten', undefined, tenant.key)).json();
    expect(first.daten).toHaveLength(25);
    expect(first.seite).toEqual({ naechster_cursor: expect.any(String), hat_weitere: true });
    for (const limit of ['0', '101']) {
      const res = await ctx.send('GET', `/leads/v1/interessenten?limit=${limit}`, undefined, tenant.key);
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toEqual([
        {
          feld: 'limit',
          grund: 'ausserhalb_bereich',
          meldung: 'limit muss zwischen 1 und 100 liegen.',
          vorgabe: { minimum: 1, maximum: 100 },
        },
      ]);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { daten: { id: string }[]; seite: { naechster_cursor: string | null } } = (
        await ctx.send(
          'GET',
          `/leads/v1/interessenten?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          undefined,
          tenant.key,
        )
      ).json();
      seen.push(...page.daten.map((p) => p.id));
      cursor = page.seite.naechster_cursor;
    } while (cursor);
    expect(seen).toHaveLength(30);
    expect(new Set(seen)).toEqual(ids);
    const inactive = (
      await ctx.send('GET', '/leads/v1/interessenten?suchprofil_aktiv=false&limit=100', undefined, tenant.key)
    ).json();
    expect(inactive.daten).toHaveLength(10);
  });
});

describe('GET and PATCH /leads/v1/interessenten/{id}', () => {
  it("answers another account's prospect like a missing one, in German", async () => {
    const theirs = (await ctx.send('POST', '/leads/v1/interessenten', prospect(), ctx.other.key)).json();
    const res = await ctx.send('GET', `/leads/v1/interessenten/${theirs.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'nicht_gefunden', message: 'Kein Interessent mit dieser ID.' });
    expect((await ctx.send('GET', '/leads/v1/interessenten/int_missing')).json()).toEqual(res.json());
  });

  it('merges the search profile field by field and clears optional fields with null', async () => {
    const created = (await ctx.send('POST', '/leads/v1/interessenten', prospect())).json();
    const res = await ctx.send('PATCH', `/leads/v1/interessenten/${created.id}`, {
      telefon: null,
      suchprofil: { zimmer_min: 3, orte: ['Berlin', 'Potsdam'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      telefon: null,
      suchprofil: { ...created.suchprofil, zimmer_min: 3, orte: ['Berlin', 'Potsdam'] },
    });
    const cleared = await ctx.send('PATCH', `/leads/v1/interessenten/${created.id}`, { einwilligung: null });
    expect(cleared.statusCode).toBe(422);
    expect(cleared.json().details).toEqual([
      {
        feld: 'einwilligung',
        grund: 'fehlt',
        meldung: 'einwilligung ist erforderlich und darf nicht null sein (einen Wert vom Typ object senden).',
        vorgabe: { typ: 'object' },
      },
    ]);
  });
});

describe('query strings and logs', () => {
  it('refuses an unknown filter instead of returning the whole list, and logs no personal value of it', async () => {
    const res = await ctx.send('GET', '/leads/v1/interessenten?email=erika.unknown@example.de');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'validierung_fehlgeschlagen',
      message: expect.any(String),
      details: [{ feld: 'email', grund: 'unbekanntes_feld' }],
    });
    expect(ctx.logs.text).toContain('/leads/v1/interessenten?email=[REDACTED]');
    expect(ctx.logs.text).not.toContain('erika.unknown');
  });

  it('logs the values of its own filters', async () => {
    await ctx.send('GET', '/leads/v1/interessenten?suchprofil_aktiv=true&limit=3');
    expect(ctx.logs.text).toContain('/leads/v1/interessenten?suchprofil_aktiv=true&limit=3');
  });

  it('never logs the personal data of a prospect or an inquiry message', async () => {
    const property = (await ctx.send('POST', '/v1/properties', validProperty())).json().id;
    await ctx.send('POST', `/v1/properties/${property}/activate`);
    const created = (
      await ctx.send('POST', '/leads/v1/interessenten', {
        ...prospect(),
        vorname: 'Lotte',
        nachname: 'Loggmann',
        email: 'lotte.loggmann@example.de',
        telefon: '+49 40 999888',
      })
    ).json();
    await ctx.send('PATCH', `/leads/v1/interessenten/${created.id}`, { email: 'not-an-email' });
    expect(
      (
        await ctx.send('POST', '/leads/v1/anfragen', {
          immobilie_id: property,
          interessent_id: created.id,
          nachricht: 'Rückruf unter 0151 7777777',
        })
      ).statusCode,
    ).toBe(201);
    await ctx.send('POST', `/leads/v1/interessenten/${created.id}/loeschung`);
    expect(ctx.logs.lines.length).toBeGreaterThan(4);
    // with their spaces: bare digits could occur by chance in a timestamp or a response time
    for (const value of ['Lotte', 'Loggmann', 'lotte.loggmann', '+49 40 999888', '0151 7777777'])
      expect(ctx.logs.text, value).not.toContain(value);
  });
});
