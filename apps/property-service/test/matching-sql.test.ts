import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import { INQUIRY_MODEL, scoreInquiry, type InquirySubject } from '../src/leads/matching/model.js';
import { minimumBudget, rankPropertiesInSql, rankProspectsInSql } from '../src/leads/matching/matching-sql.js';
import { normaliseLocation, toColumns } from '../src/leads/prospects/mapping.js';
import type { ProspectInput } from '../src/leads/prospects/schemas.js';
import { recordDeclaredConsent } from '../src/leads/consent/index.js';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const einwilligung = { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' };

// Locations the model treats in particular ways: case and whitespace (also Unicode: no-break and
// ideographic spaces, non-ASCII capitals, Greek final sigma), postal-code prefixes (also longer
// than the code, and LIKE's wildcards, which are plain characters to the model), blank entries
// (the empty prefix matches every code).
const ORTE: string[][] = [
  [],
  ['Berlin'],
  ['berlin '],
  ['\u00a0BERLIN\t'],
  ['101'],
  ['10115'],
  ['101150'],
  ['1_1'],
  ['10%'],
  ['%'],
  [' '],
  ['\u3000'],
  ['Hamburg'],
  ['Hamburg', '10'],
  ['München'],
  ['MÜNCHEN'],
  ['münchen\u2009'],
  ['8'],
  ['80331'],
  ['Köln', 'Bonn'],
  ['KÖLN'],
  ['5066'],
  ['ΟΔΟΣ'],
  ['οδος'],
  // a city's districts: the leading part matches, hyphen and space interchangeable, the rest not
  ['Berlin-Mitte'],
  ['berlin mitte'],
  ['Berlin-Pankow'],
  ['Mitte'],
  ['berlin-'],
  ['İzmir'],
  ['i\u0307zmir-konak'],
];

describe('the SQL ranking follows the inquiry scoring model', () => {
  it('finds exactly the prospects the model does not knock out, with the same points, for properties of every kind', async () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    const base = { account_id: ctx.tenant.accountId, status: 'active' as const, title: 'T' };
    const properties = [
      // bought or rented; budgets just below and above the knockout (400,000 / 1.2, 1,200 / 1.2)
      {
        ...base,
        id: newId('prop'),
        type: 'apartment' as const,
        address_postal_code: '10115',
        address_city: 'Berlin',
        rooms: 3,
        living_area_sqm: 75,
        purchase_price_eur: 400000,
        cold_rent_eur: 1200,
      },
      // a district, found by a search for its city
      {
        ...base,
        id: newId('prop'),
        type: 'apartment' as const,
        address_postal_code: '10119',
        address_city: 'Berlin-Mitte',
        rooms: 2.5,
        living_area_sqm: 52.5,
        purchase_price_eur: 415000,
        cold_rent_eur: 1100,
      },
      // a non-ASCII city, rooms and area unknown (half the points), bought only
      {
        ...base,
        id: newId('prop'),
        type: 'house' as const,
        address_postal_code: '80331',
        address_city: 'MÜNCHEN',
        rooms: null,
        living_area_sqm: null,
        purchase_price_eur: 650000,
        cold_rent_eur: null,
      },
      // rented only
      {
        ...base,
        id: newId('prop'),
        type: 'apartment' as const,
        address_postal_code: '50667',
        address_city: 'Köln',
        rooms: 2.5,
        living_area_sqm: 60,
        purchase_price_eur: null,
        cold_rent_eur: 950,
      },
      {
        ...base,
        id: newId('prop'),
        type: 'house' as const,
        address_postal_code: '01067',
        address_city: 'Οδος',
        rooms: 4,
        living_area_sqm: 120,
        purchase_price_eur: 541667,
        cold_rent_eur: null,
      },
    ];
    for (const data of properties) await ctx.db.prisma.property.create({ data });
    for (let i = 0; i < 400; i++) {
      const suchprofil: Record<string, unknown> = {
        aktiv: rnd() > 0.1,
        vermarktung: pick(['kauf', 'miete'] as const),
        typ: pick([[], ['apartment'], ['house'], ['apartment', 'house']]),
        orte: pick(ORTE),
        zimmer_min: pick([undefined, 0, 1, 2.5, 3, 4, 6]),
        kaufpreis_max_eur: pick([undefined, 0, 300000, 333333, 333334, 380000, 420000, 541666, 541667, 600000]),
        kaltmiete_max_eur: pick([undefined, 0, 791, 792, 900, 999, 1000, 1100, 1500]),
        wohnflaeche_min_qm: pick([undefined, 0, 50, 60, 75, 90, 120, 150]),
      };
      const input = { nachname: `N${i}`, email: `n${i}@example.de`, einwilligung, suchprofil } as ProspectInput;
      const row = await ctx.db.prisma.prospect.create({
        // the app's own mapping, so the stored normalised locations are written as in production
        data: {
          id: newId('int'),
          account_id: ctx.tenant.accountId,
          ...toColumns(input),
          last_activity_at: new Date(),
          retention_until: new Date('2099-01-01'),
        },
      });
      // its einwilligung as its marketing consent record, as creating it through the API does
      await recordDeclaredConsent(ctx.db.prisma, row, new Date());
    }
    const prospects = await ctx.db.prisma.prospect.findMany({
      where: { account_id: ctx.tenant.accountId, profile_active: true },
    });
    for (const property of await ctx.db.prisma.property.findMany({
      where: { id: { in: properties.map((p) => p.id) } },
    })) {
      const expected = new Map(
        prospects
          .map((p) => [p.id, scoreInquiry({ property, prospect: p })] as const)
          .filter(([, b]) => !b.ausgeschlossen)
          .map(([id, b]) => [id, b.gesamt]),
      );
      const ranked = await rankProspectsInSql(ctx.db.prisma, property, 1000);
      expect(new Set(ranked.map((r) => r.id)), property.address_city).toEqual(new Set(expected.keys()));
      expect(expected.size).toBeGreaterThan(20);
      expect(new Set(ranked.map((r) => Number(r.points))).size, 'points of every kind').toBeGreaterThan(5);
      for (const r of ranked) expect(Math.abs(Number(r.points) - expected.get(r.id)!), r.id).toBeLessThanOrEqual(0.5);
      const points = ranked.map((r) => Number(r.points));
      expect(points).toEqual([...points].sort((a, b) => b - a));
      // pages (keyset: after the last of the previous page) are slices of the same order
      const page = await rankProspectsInSql(ctx.db.prisma, property, 7, ranked[4]);
      expect(page).toEqual(ranked.slice(5, 12));
    }
  });

  it('finds exactly the properties the model does not knock out, in the order of its ranking, for prospects of every kind', async () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    // Cities whose lower case only a full Unicode mapping gets right (JavaScript's toLowerCase, ICU):
    // non-ASCII capitals, the Greek final sigma, the dotted capital I (two code points in lower
    // case), the capital sharp s; a city equal to a postal-code prefix; postal codes holding
    // LIKE's wildcards, which are plain characters to the model.
    const PLACES = [
      ['10115', 'Berlin'],
      ['10117', 'BERLIN'],
      ['10115', 'berlin'],
      ['80331', 'München'],
      ['80335', 'MÜNCHEN'],
      ['50667', 'KÖLN'],
      ['50668', 'Köln'],
      ['01067', 'ΟΔΟΣ'],
      ['01069', 'Οδος'],
      ['34000', 'İZMIR'],
      ['01558', 'GROẞENHAIN'],
      ['20095', 'Hamburg'],
      ['1_115', 'Bonn'],
      ['10%15', 'Bonn'],
      ['53111', '101'],
      // districts, spelled with a hyphen or a space; a capital whose lower case is two code points
      ['10119', 'Berlin-Mitte'],
      ['10117', 'BERLIN MITTE'],
      ['13187', 'Berlin-Pankow'],
      ['60311', 'Frankfurt am Main'],
      ['35210', 'İZMIR-KONAK'],
      ['35220', 'İzmir Konak'],
    ] as const;
    const property = (account_id: string) => {
      const [address_postal_code, address_city] = pick(PLACES);
      return {
        id: newId('prop'),
        account_id,
        title: 'T',
        status: pick(['draft', 'active', 'active', 'active', 'reserved', 'sold', 'rented', 'archived'] as const),
        type: pick(['apartment', 'apartment', 'house', 'house', 'land', 'commercial', 'parking'] as const),
        address_postal_code,
        address_city,
        rooms: pick([null, 0, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 7]),
        living_area_sqm: pick([null, 0, 25.5, 35, 50, 52.5, 60, 62.9, 75, 90, 120, 200]),
        // around the budgets below and their knockouts (budget × 1.2)
        purchase_price_eur: pick([
          null,
          null,
          0,
          150000,
          300000,
          360000,
          399999,
          400000,
          400001,
          420000,
          456789,
          480000,
          500000,
          541667,
          650000,
          720000,
        ]),
        cold_rent_eur: pick([null, null, 0, 450, 790, 950, 999, 1000, 1100, 1199, 1200, 1201, 1320, 1800]),
      };
    };
    const ours = Array.from({ length: 300 }, () => property(ctx.tenant.accountId));
    const theirs = Array.from({ length: 40 }, () => property(ctx.other.accountId));
    await ctx.db.prisma.property.createMany({ data: [...ours, ...theirs] });

    const tricky = [
      ['İzmir'],
      ['izmir'],
      ['i\u0307zmir'],
      ['GROẞENHAIN'],
      ['großenhain'],
      ['grossenhain'],
      ['οδοσ'],
      ['Bonn', '1_1'],
      ['101', 'München'],
      ['Berlin'],
      ['berlin mitte'],
      ['Berlin-Mitte', 'Hamburg'],
      ['frankfurt'],
      ['frankfurt-am-main'],
      ['frankfurt am'],
      ['Frankfurt-am Main'],
      ['izmir-konak'],
      ['i\u0307zmir konak'],
      ['i\u0307zmir-'],
      ['Konak'],
    ];
    const profiles: Record<string, unknown>[] = [
      {}, // buy, no budget, no locations, no minimums
      { vermarktung: 'miete' },
      {
        vermarktung: 'miete',
        typ: ['apartment'],
        orte: ['Berlin'],
        kaltmiete_max_eur: 1000,
        zimmer_min: 3,
        wohnflaeche_min_qm: 75,
      },
      {
        typ: ['house', 'apartment'],
        orte: ['MÜNCHEN', '1'],
        kaufpreis_max_eur: 400000,
        zimmer_min: 2.5,
        wohnflaeche_min_qm: 60,
      },
      { kaufpreis_max_eur: 0, zimmer_min: 0, wohnflaeche_min_qm: 0 },
      // every list of locations twice, the rest at random
      ...[...ORTE, ...tricky, ...ORTE, ...tricky].map((orte) => ({
        vermarktung: pick(['kauf', 'miete'] as const),
        typ: pick([[], ['apartment'], ['house'], ['apartment', 'house'], ['land', 'parking']]),
        orte,
        zimmer_min: pick([undefined, 0, 1, 2.5, 3, 4, 6]),
        kaufpreis_max_eur: pick([undefined, 0, 300000, 333333, 333334, 380000, 400000, 420000, 541666, 541667, 600000]),
        kaltmiete_max_eur: pick([undefined, 0, 791, 792, 900, 999, 1000, 1100, 1500]),
        wohnflaeche_min_qm: pick([undefined, 0, 50, 60, 75, 90, 120, 150]),
      })),
    ];
    const columns = (suchprofil: Record<string, unknown> | undefined, i: number) =>
      toColumns({
        nachname: `P${i}`,
        email: `p${i}@example.de`,
        einwilligung,
        ...(suchprofil ? { suchprofil } : {}),
      } as ProspectInput);
    const prospects = [
      ...profiles.map((suchprofil, i) => columns(suchprofil, i)),
      // without a profile the model knocks out neither by type nor by a missing price (matching asks only for active
      // profiles, but the ranking follows the model for any prospect), also with a budget left behind
      columns(undefined, 1000),
      {
        ...columns(undefined, 1001),
        profile_types: ['house' as const],
        profile_purchase_price_max: 400000,
        profile_rooms_min: 3,
      },
    ];
    const created = [];
    for (const data of prospects) {
      const row = await ctx.db.prisma.prospect.create({
        data: {
          id: newId('int'),
          account_id: ctx.tenant.accountId,
          ...data,
          last_activity_at: new Date(),
          retention_until: new Date('2099-01-01'),
        },
      });
      // its einwilligung as its marketing consent record, as creating it through the API does
      await recordDeclaredConsent(ctx.db.prisma, row, new Date());
      created.push(row);
    }

    // The model's unrounded sum of points (the engine's clamp and order of addition), which the SQL ranks by.
    const clamp = (n: number) => Math.min(1, Math.max(0, Number.isFinite(n) ? n : 0));
    const rawPoints = (subject: InquirySubject) =>
      INQUIRY_MODEL.criteria.reduce((acc, c) => acc + c.weight * clamp(c.assess(subject).fraction), 0);
    // every property of the account, those of other tests in this file included
    const properties = await ctx.db.prisma.property.findMany({ where: { account_id: ctx.tenant.accountId } });
    const theirIds = new Set(theirs.map((p) => p.id));
    const totals = new Set<number>();
    let tiesAgainstRawOrder = 0;
    let sizes = 0;
    for (const prospect of created) {
      // the model's ranking as the service had it before: not knocked out, total descending, then id
      const expected = properties
        .map((property) => ({
          id: property.id,
          bewertung: scoreInquiry({ property, prospect }),
          points: rawPoints({ property, prospect }),
        }))
        .filter((e) => !e.bewertung.ausgeschlossen)
        .sort((a, b) => b.bewertung.gesamt - a.bewertung.gesamt || (a.id < b.id ? -1 : 1));
      for (const e of expected) expect(Math.round(e.points), "the raw points are the model's").toBe(e.bewertung.gesamt);
      const ranked = await rankPropertiesInSql(ctx.db.prisma, prospect, 10_000);
      const {
        has_profile,
        profile_marketing,
        profile_types,
        profile_locations,
        profile_rooms_min,
        profile_purchase_price_max,
        profile_cold_rent_max,
        profile_living_area_min,
      } = prospect;
      const label = JSON.stringify({
        has_profile,
        profile_marketing,
        profile_types,
        profile_locations,
        profile_rooms_min,
        profile_purchase_price_max,
        profile_cold_rent_max,
        profile_living_area_min,
      });
      expect(
        ranked.map((r) => r.id),
        label,
      ).toEqual(expected.map((e) => e.id));
      // the same floating-point sum to the last bit, and the model's rounded total
      expect(
        ranked.map((r) => [Number(r.points), Number(r.gesamt)]),
        label,
      ).toEqual(expected.map((e) => [e.points, e.bewertung.gesamt]));
      expect(ranked.some((r) => theirIds.has(r.id))).toBe(false);
      for (const e of expected) totals.add(e.bewertung.gesamt);
      for (let i = 1; i < expected.length; i++) {
        const [a, b] = [expected[i - 1], expected[i]];
        if (a.bewertung.gesamt === b.bewertung.gesamt && a.points < b.points) tiesAgainstRawOrder++;
      }
      sizes += expected.length;
      // pages are slices of the same order, and together hold every match exactly once
      const paged: string[] = [];
      for (let after: { gesamt: number; id: string } | undefined; ;) {
        const page = await rankPropertiesInSql(ctx.db.prisma, prospect, 17, after);
        paged.push(...page.map((r) => r.id));
        if (page.length < 17) break;
        after = page[16];
      }
      expect(paged, label).toEqual(expected.map((e) => e.id));
    }
    // the data reach every kind of outcome: many totals, rounding ties the raw points would order otherwise
    expect(totals.size).toBeGreaterThan(30);
    expect(tiesAgainstRawOrder).toBeGreaterThan(0);
    expect(sizes / created.length).toBeGreaterThan(20);

    // The endpoint pages over the same ranking with the model's explanation of each match.
    for (const prospect of created.slice(0, 8)) {
      const expected = properties
        .map((property) => ({
          immobilie_id: property.id,
          titel: property.title,
          status: property.status,
          bewertung: scoreInquiry({ property, prospect }),
        }))
        .filter((e) => !e.bewertung.ausgeschlossen)
        .sort((a, b) => b.bewertung.gesamt - a.bewertung.gesamt || (a.immobilie_id < b.immobilie_id ? -1 : 1));
      const seen: unknown[] = [];
      let cursor: string | null = null;
      do {
        const res = await ctx.send(
          'GET',
          `/leads/v1/interessenten/${prospect.id}/treffer?limit=40${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(res.statusCode).toBe(200);
        const body = res.json() as {
          daten: unknown[];
          seite: { naechster_cursor: string | null; hat_weitere: boolean };
        };
        seen.push(...body.daten);
        expect(body.seite.hat_weitere).toBe(body.seite.naechster_cursor !== null);
        cursor = body.seite.naechster_cursor;
      } while (cursor);
      expect(seen).toEqual(expected);
    }
  });

  it('the price knockout as an integer bound agrees with the model to the last bit', () => {
    const out = (price: number, budget: number) => price > budget * 1.2;
    for (let price = 0; price < 5000; price++) {
      const min = minimumBudget(price);
      expect(out(price, min), `price ${price}`).toBe(false);
      expect(out(price, min - 1), `price ${price}`).toBe(true);
    }
    for (const price of [120_000_001, 400_000, 420_000, 2_147_483_647, 999_999_999]) {
      const min = minimumBudget(price);
      expect([out(price, min), out(price, min - 1)]).toEqual([false, true]);
    }
  });
});

describe('the stored normalised locations (profile_locations_norm)', () => {
  const stored = async (id: string) =>
    (
      await ctx.db.query<{ orte: string[]; norm: string[] }>(
        'SELECT profile_locations AS orte, profile_locations_norm AS norm FROM prospects WHERE id = $1',
        [id],
      )
    )[0];

  it('are written with the locations by every API that writes them', async () => {
    const created = await ctx.send('POST', '/leads/v1/interessenten', {
      nachname: 'Ort',
      email: 'ort@example.de',
      einwilligung,
      suchprofil: { orte: [' Berlin ', 'MÜNCHEN', '101'] },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect(await stored(id)).toEqual({ orte: [' Berlin ', 'MÜNCHEN', '101'], norm: ['berlin', 'münchen', '101'] });
    expect(
      (await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { suchprofil: { orte: ['\u00a0KÖLN'] } })).statusCode,
    ).toBe(200);
    expect(await stored(id)).toEqual({ orte: ['\u00a0KÖLN'], norm: ['köln'] });
    expect((await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { suchprofil: null })).statusCode).toBe(200);
    expect(await stored(id)).toEqual({ orte: [], norm: [] });

    const property = await ctx.db.prisma.property.create({
      data: {
        id: newId('prop'),
        account_id: ctx.tenant.accountId,
        status: 'active',
        type: 'apartment',
        title: 'T',
        address_postal_code: '10115',
        address_city: 'Berlin',
        purchase_price_eur: 1,
      },
    });
    const inquiry = await ctx.send('POST', '/leads/v1/anfragen', {
      immobilie_id: property.id,
      interessent: { nachname: 'Neu', email: 'neu@example.de', einwilligung, suchprofil: { orte: ['Potsdam '] } },
    });
    expect(inquiry.statusCode).toBe(201);
    expect(await stored(inquiry.json().interessent_id)).toEqual({ orte: ['Potsdam '], norm: ['potsdam'] });
  });

  it('are backfilled by the migration exactly as the app writes them', async () => {
    const rows = await ctx.db.query<{ id: string; orte: string[]; norm: string[] }>(
      'SELECT id, profile_locations AS orte, profile_locations_norm AS norm FROM prospects',
    );
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) expect(row.norm, row.id).toEqual(row.orte.map(normaliseLocation));
    // The migration's UPDATE recomputes every row: nothing may change.
    const migration = readFileSync(
      new URL('../../../prisma/migrations/20261122180000_profil_orte_norm/migration.sql', import.meta.url),
      'utf8',
    );
    // (with the columns' names of today: 20261127210000_leads_english_columns renamed them)
    const backfill = migration
      .slice(migration.indexOf('UPDATE "prospects"'))
      .replaceAll('"profil_orte_norm"', '"profile_locations_norm"')
      .replaceAll('"profil_orte"', '"profile_locations"');
    await ctx.db.query(backfill);
    const after = await ctx.db.query<{ id: string; norm: string[] }>(
      'SELECT id, profile_locations_norm AS norm FROM prospects',
    );
    expect(new Map(after.map((r) => [r.id, r.norm]))).toEqual(new Map(rows.map((r) => [r.id, r.norm])));
  });
});
