import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import { valuate, type ComparableInput } from '../src/valuations/method.js';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
  // Valued on 2026-06-30: the 36-month window is 2023-06-30 … 2026-06-30.
  ctx.clock.now = new Date('2026-06-30T10:00:00Z');
});
afterAll(() => ctx.close());

interface Home {
  postal_code?: string;
  living_area_sqm?: number;
  year_built?: number;
  purchase_price_eur?: number;
  cold_rent_eur?: number;
}

/** An active apartment of the key's account; resolves to its id. */
async function activeHome(home: Home = {}, key = ctx.tenant.key): Promise<string> {
  const { postal_code = '10115', ...rest } = home;
  const { purchase_price_eur: _asking, ...base } = validProperty();
  const created = await ctx.send(
    'POST',
    '/v1/properties',
    { ...base, address: { ...base.address, postal_code }, year_built: 2000, living_area_sqm: 100, ...rest },
    key,
  );
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect((await ctx.send('POST', `/v1/properties/${id}/activate`, undefined, key)).statusCode).toBe(200);
  return id;
}

/** An apartment marked sold through the API at the price and day; resolves to its id. */
async function sold(price_eur: number, date: string, home: Home = {}, key = ctx.tenant.key): Promise<string> {
  const id = await activeHome(home, key);
  const res = await ctx.send('POST', `/v1/properties/${id}/mark-sold`, { price_eur, date }, key);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().transaction).toEqual({ price_eur, date, assumed: false });
  return id;
}

/** A market transaction imported into the account (as the CLI import writes it); resolves to its id. */
async function imported(accountId: string, row: Partial<ComparableInput> & { price_eur: number }): Promise<string> {
  const id = newId('mtx');
  await ctx.db.prisma.marketTransaction.create({
    data: {
      id,
      account_id: accountId,
      type: row.type ?? 'apartment',
      marketing: row.marketing ?? 'sale',
      postal_code: row.postal_code ?? '10115',
      living_area_sqm: row.living_area_sqm ?? 100,
      year_built: row.year_built === undefined ? 2000 : row.year_built,
      price_eur: row.price_eur,
      date: new Date(`${row.date ?? '2026-02-01'}T00:00:00Z`),
      source_ref: 'test.csv:2',
    },
  });
  return id;
}

describe('GET /v1/properties/{id}/valuation', () => {
  it("values from the account's own sales (marked with a price) and its imported market data, exactly as the method computes", async () => {
    const subject = await activeHome({ purchase_price_eur: 500_000 });
    const own = [
      await sold(400_000, '2026-01-10'),
      await sold(420_000, '2026-03-05'),
      await sold(462_000, '2025-11-20', { living_area_sqm: 110 }),
    ];
    const market = [
      await imported(ctx.tenant.accountId, { price_eur: 410_000, date: '2025-09-01' }),
      await imported(ctx.tenant.accountId, { price_eur: 430_000, date: '2026-04-01' }),
    ];
    // Another account's sale and import in the same postal code, at prices that would move any estimate: never used.
    const theirs = [
      await sold(9_000_000, '2026-02-02', {}, ctx.other.key),
      await imported(ctx.other.accountId, { price_eur: 9_000_000 }),
    ];
    // Too old (outside the 36 months) and not alike (a house) are not candidates at all.
    await imported(ctx.tenant.accountId, { price_eur: 100_000, date: '2023-06-29' });
    await imported(ctx.tenant.accountId, { price_eur: 100_000, type: 'house' });
    // Alike and recent but 200 m² (outside 70 – 130 m²) or built 1960 (outside 1975 – 2025): outside the selection, counted, not listed.
    await imported(ctx.tenant.accountId, { price_eur: 800_000, living_area_sqm: 200 });
    await sold(400_000, '2026-02-15', { year_built: 1960 });

    const res = await ctx.send('GET', `/v1/properties/${subject}/valuation`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // By hand: per m² 4000, 4200, 4100, 4300 and 462 000 / 110 = 4200 × 1.02 (10 % larger: +2 %) = 4284.
    // Sorted 4000, 4100, 4200, 4284, 4300: median 4200 → 420 000; Q1 4100, Q3 4284 → 410 000 … 428 400.
    expect(body).toMatchObject({
      property_id: subject,
      subject: {
        type: 'apartment',
        marketing: 'sale',
        postal_code: '10115',
        living_area_sqm: 100,
        year_built: 2000,
        as_of: '2026-06-30',
      },
      method_version: 'comparison/1',
      estimate_eur: 420_000,
      range_eur: { low: 410_000, high: 428_400 },
      price_per_sqm_eur: 4200,
      confidence: 'medium',
      reason: null,
      selection: { postal_code_prefix: '10115', widened: false },
    });
    const ids = body.comparables.map((c: { id: string }) => c.id);
    expect(ids.sort()).toEqual([...own, ...market].sort());
    for (const id of theirs) expect(ids).not.toContain(id);
    expect(body.excluded).toEqual({
      count: 2,
      by_reason: { postal_code: 0, date: 0, no_area_or_price: 0, living_area: 1, year_built_unknown: 0, year_built: 1 },
    });
    const larger = body.comparables.find((c: { id: string }) => c.id === own[2]);
    expect(larger).toMatchObject({
      source: 'own',
      raw_price_eur: 462_000,
      raw_price_per_sqm: 4200,
      adjusted_price_per_sqm: 4284,
      dropped: null,
    });
    expect(larger.adjustments).toEqual([
      { kind: 'area', factor: 1.02, explanation: expect.stringContaining('10.00 % larger') },
      { kind: 'age', factor: 1, explanation: expect.any(String) },
    ]);

    // The same inputs through the pure method give the same answer (but for the two excluded ones, not listed).
    const inputs: ComparableInput[] = body.comparables.map((c: ComparableInput & { raw_price_eur: number }) => ({
      id: c.id,
      type: 'apartment',
      marketing: 'sale',
      postal_code: c.postal_code,
      living_area_sqm: c.living_area_sqm,
      year_built: c.year_built,
      price_eur: c.raw_price_eur,
      date: c.date,
      source: c.source,
    }));
    const { property_id: _id, subject: valued, ...result } = body;
    expect(result).toEqual({ ...valuate(valued, inputs), excluded: body.excluded });
  });

  it('gives no estimate, with the reason, from fewer than 5 usable comparables (after widening)', async () => {
    const subject = await activeHome({ postal_code: '80331', purchase_price_eur: 700_000 });
    await sold(600_000, '2026-01-10', { postal_code: '80331' });
    await sold(610_000, '2026-01-11', { postal_code: '80469' });
    await imported(ctx.tenant.accountId, { postal_code: '80999', price_eur: 620_000 });
    const body = (await ctx.send('GET', `/v1/properties/${subject}/valuation`)).json();
    expect(body).toMatchObject({
      estimate_eur: null,
      range_eur: null,
      confidence: null,
      statistics: null,
      selection: { postal_code_prefix: '80', widened: true },
    });
    expect(body.reason).toBe(
      'only 3 usable comparables in postal codes starting with 80, at least 5 are needed: no estimate',
    );
    expect(body.comparables).toHaveLength(3);
    expect(body.excluded.count).toBe(0);
  });

  it('values a property with only a cold rent as a letting, from rented properties and imported rents', async () => {
    const subject = await activeHome({ postal_code: '50667', cold_rent_eur: 1500 });
    for (const rent of [1200, 1300, 1400]) {
      const id = await activeHome({ postal_code: '50667', cold_rent_eur: rent });
      expect(
        (await ctx.send('POST', `/v1/properties/${id}/mark-rented`, { cold_rent_eur: rent, date: '2026-05-01' }))
          .statusCode,
      ).toBe(200);
    }
    for (const rent of [1250, 1350])
      await imported(ctx.tenant.accountId, { postal_code: '50667', marketing: 'rent', price_eur: rent });
    await imported(ctx.tenant.accountId, { postal_code: '50667', marketing: 'sale', price_eur: 500_000 });
    const body = (await ctx.send('GET', `/v1/properties/${subject}/valuation`)).json();
    expect(body.subject.marketing).toBe('rent');
    expect(body.estimate_eur).toBe(1300);
    expect(body.comparables).toHaveLength(5);
    // Asked as a sale instead: only the one imported sale.
    const asSale = (await ctx.send('GET', `/v1/properties/${subject}/valuation?marketing=sale`)).json();
    expect(asSale).toMatchObject({ subject: { marketing: 'sale' }, estimate_eur: null });
    expect(asSale.comparables).toHaveLength(1);
  });

  it('counts a sale recorded at the asking price (no body), marked as assumed', async () => {
    const subject = await activeHome({ postal_code: '20095', purchase_price_eur: 1 });
    const id = await activeHome({ postal_code: '20095', purchase_price_eur: 380_000 });
    await ctx.send('POST', `/v1/properties/${id}/mark-sold`);
    const body = (await ctx.send('GET', `/v1/properties/${subject}/valuation`)).json();
    expect(body.comparables).toEqual([
      expect.objectContaining({ id, raw_price_eur: 380_000, date: '2026-06-30', source: 'own' }),
    ]);
  });

  it('404 for a missing property', async () => {
    expect((await ctx.send('GET', '/v1/properties/prop_missing/valuation')).statusCode).toBe(404);
  });
});

describe('GET /v1/properties/{id}/comparables', () => {
  it("pages through the valuation's comparables in its order with a signed cursor", async () => {
    const subject = await activeHome({ postal_code: '01067', purchase_price_eur: 300_000 });
    for (const [i, price] of [300_000, 310_000, 320_000, 330_000, 340_000].entries())
      await sold(price, `2026-0${i + 1}-15`, { postal_code: '01067' });
    await imported(ctx.tenant.accountId, { postal_code: '01067', price_eur: 305_000, date: '2026-03-15' });
    const expected = (await ctx.send('GET', `/v1/properties/${subject}/valuation`)).json().comparables;
    expect(expected).toHaveLength(6);

    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const res = await ctx.send(
        'GET',
        `/v1/properties/${subject}/comparables?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      seen.push(...page.data);
      cursor = page.page.next_cursor;
      expect(page.page.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(expected);

    const first = (await ctx.send('GET', `/v1/properties/${subject}/comparables?limit=2`)).json();
    const tampered = await ctx.send('GET', `/v1/properties/${subject}/comparables?cursor=${first.page.next_cursor}x`);
    expect(tampered.statusCode).toBe(422);
    // A cursor is bound to its property.
    const other = await activeHome({ postal_code: '01067' });
    expect(
      (await ctx.send('GET', `/v1/properties/${other}/comparables?cursor=${first.page.next_cursor}`)).statusCode,
    ).toBe(422);
  });
});

describe('mark-sold and mark-rented record the transaction', () => {
  it('takes the asking price and today, marked as assumed, when no body, {} or null is sent', async () => {
    const a = await activeHome({ purchase_price_eur: 450_000 });
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/v1/properties/${a}/mark-sold`,
      headers: { apikey: ctx.tenant.key },
    });
    expect(res.json()).toMatchObject({
      status: 'sold',
      transaction: { price_eur: 450_000, date: '2026-06-30', assumed: true },
    });
    const b = await activeHome({ cold_rent_eur: 1100 });
    expect((await ctx.send('POST', `/v1/properties/${b}/mark-rented`, {})).json()).toMatchObject({
      status: 'rented',
      transaction: { price_eur: 1100, date: '2026-06-30', assumed: true },
    });
    const c = await activeHome({ purchase_price_eur: 200_000 });
    expect((await ctx.send('POST', `/v1/properties/${c}/mark-sold`, null)).json().transaction).toEqual({
      price_eur: 200_000,
      date: '2026-06-30',
      assumed: true,
    });
    // No asking price either: nothing to record.
    const d = await activeHome({ cold_rent_eur: 900 });
    expect((await ctx.send('POST', `/v1/properties/${d}/mark-sold`)).json()).toMatchObject({
      status: 'sold',
      transaction: null,
    });
    expect((await ctx.send('GET', `/v1/properties/${a}`)).json().transaction).toEqual({
      price_eur: 450_000,
      date: '2026-06-30',
      assumed: true,
    });
  });

  it('shows no transaction before one', async () => {
    const id = await activeHome();
    expect((await ctx.send('GET', `/v1/properties/${id}`)).json().transaction).toBeNull();
  });

  it.each([
    ['mark-sold', { price_eur: 100_000 }, [{ field: 'date', reason: 'missing' }]],
    ['mark-sold', { date: '2026-06-01' }, [{ field: 'price_eur', reason: 'missing' }]],
    ['mark-sold', { price_eur: -1, date: '2026-06-01' }, [{ field: 'price_eur', reason: 'out_of_range' }]],
    ['mark-sold', { price_eur: 1.5, date: '2026-06-01' }, [{ field: 'price_eur', reason: 'invalid_type' }]],
    ['mark-sold', { price_eur: 100_000, date: '01.06.2026' }, [{ field: 'date', reason: 'invalid_format' }]],
    ['mark-sold', { price_eur: 100_000, date: '2026-07-01' }, [{ field: 'date', reason: 'out_of_range' }]],
    ['mark-sold', { cold_rent_eur: 900, date: '2026-06-01' }, [{ field: 'cold_rent_eur', reason: 'unknown_field' }]],
    ['mark-rented', { cold_rent_eur: 900 }, [{ field: 'date', reason: 'missing' }]],
    ['mark-rented', { price_eur: 900, date: '2026-06-01' }, [{ field: 'price_eur', reason: 'unknown_field' }]],
  ])('%s refuses %j with 422 and changes nothing', async (action, body, details) => {
    const id = await activeHome({ purchase_price_eur: 100_000, cold_rent_eur: 900 });
    const res = await ctx.send('POST', `/v1/properties/${id}/${action}`, body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: expect.arrayContaining(details.map((detail) => expect.objectContaining(detail))),
    });
    expect((await ctx.send('GET', `/v1/properties/${id}`)).json()).toMatchObject({
      status: 'active',
      transaction: null,
    });
  });

  it('records nothing when the transition is refused (409)', async () => {
    const created = await ctx.send('POST', '/v1/properties', validProperty());
    const id = created.json().id as string;
    expect(
      (await ctx.send('POST', `/v1/properties/${id}/mark-sold`, { price_eur: 1, date: '2026-06-01' })).statusCode,
    ).toBe(409);
    expect((await ctx.send('GET', `/v1/properties/${id}`)).json().transaction).toBeNull();
  });
});
