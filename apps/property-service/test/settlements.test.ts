import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventData, startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
  ctx.clock.now = new Date('2026-06-30T10:00:00Z');
});
afterAll(() => ctx.close());

const { purchase_price_eur: _asking, ...apartment } = validProperty();

/** An active property with the fields; resolves to its id. */
async function active(fields: Record<string, unknown>): Promise<string> {
  const created = await ctx.send('POST', '/v1/properties', { ...apartment, ...fields });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect((await ctx.send('POST', `/v1/properties/${id}/activate`)).statusCode).toBe(200);
  return id;
}

async function settlementsOf(propertyId: string) {
  const res = await ctx.send('GET', `/v1/settlements?property_id=${propertyId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Record<string, unknown>[];
}

const eventOf = async (propertyId: string) =>
  (await eventData(ctx, 'settlement.created')).filter((data) => data.property_id === propertyId);

describe('commission settlements on mark-sold / mark-rented', () => {
  it('§656c BGB: an apartment sale engaged by both settles equal shares, rounded once half up, and emits settlement.created', async () => {
    const id = await active({
      purchase_price_eur: 399_999,
      commission: { seller_percent: 2.975, buyer_percent: 2.975, engaged_by: 'both' },
    });
    const sold = await ctx.send('POST', `/v1/properties/${id}/mark-sold`, { price_eur: 399_999, date: '2026-06-15' });
    expect(sold.statusCode, sold.body).toBe(200);

    // 39,999,900 ct × 2.975 % = 1,189,997.025 ct → 1,189,997; VAT 19 %: 226,099.43 → 226,099; gross 1,416,096.
    const line = {
      base_cents: 39_999_900,
      percent_milli: 2975,
      months_hundredths: null,
      net_cents: 1_189_997,
      vat_rate_basis_points: 1900,
      vat_cents: 226_099,
      gross_cents: 1_416_096,
      due_after_party: null,
    };
    const [settlement] = await settlementsOf(id);
    expect(settlement).toMatchObject({
      property_id: id,
      kind: 'sale',
      rules_version: 'commission-de/2',
      regime: 'bgb_656c',
      transaction_date: '2026-06-15',
      net_cents: 2_379_994,
      vat_cents: 452_198,
      gross_cents: 2_832_192,
      lines: [
        { position: 1, party: 'seller', ...line },
        { position: 2, party: 'buyer', ...line },
      ],
    });
    const fetched = await ctx.send('GET', `/v1/settlements/${settlement.id}`);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual(settlement);

    expect(await eventOf(id)).toEqual([
      {
        settlement_id: settlement.id,
        property_id: id,
        kind: 'sale',
        net_cents: 2_379_994,
        vat_cents: 452_198,
        gross_cents: 2_832_192,
        lines: [
          {
            party: 'seller',
            net_cents: 1_189_997,
            vat_cents: 226_099,
            gross_cents: 1_416_096,
            due_after_party: null,
            invoice_id: null,
          },
          {
            party: 'buyer',
            net_cents: 1_189_997,
            vat_cents: 226_099,
            gross_cents: 1_416_096,
            due_after_party: null,
            invoice_id: null,
          },
        ],
      },
    ]);
  });

  it('§656d BGB: engaged by the seller, the buyer pays a smaller share, due after the seller', async () => {
    const id = await active({
      purchase_price_eur: 500_000,
      commission: { seller_percent: 3.57, buyer_percent: 2.5, engaged_by: 'seller' },
    });
    expect(
      (await ctx.send('POST', `/v1/properties/${id}/mark-sold`, { price_eur: 500_000, date: '2026-06-01' })).statusCode,
    ).toBe(200);
    const [settlement] = await settlementsOf(id);
    expect(settlement).toMatchObject({
      regime: 'bgb_656d',
      net_cents: 3_035_000,
      vat_cents: 576_650,
      gross_cents: 3_611_650,
      lines: [
        {
          party: 'seller',
          base_cents: 50_000_000,
          percent_milli: 3570,
          net_cents: 1_785_000,
          vat_cents: 339_150,
          gross_cents: 2_124_150,
          due_after_party: null,
        },
        {
          party: 'buyer',
          base_cents: 50_000_000,
          percent_milli: 2500,
          net_cents: 1_250_000,
          vat_cents: 237_500,
          gross_cents: 1_487_500,
          due_after_party: 'seller',
        },
      ],
    });
  });

  it('§2 Abs. 1a and §3 Abs. 2 WoVermittG: a residential letting engaged by the tenant charges the tenant up to two cold rents plus VAT', async () => {
    const id = await active({ cold_rent_eur: 1_200, commission: { tenant_months: 2, engaged_by: 'buyer' } });
    const rented = await ctx.send('POST', `/v1/properties/${id}/mark-rented`, {
      cold_rent_eur: 1_234,
      date: '2026-06-01',
    });
    expect(rented.statusCode, rented.body).toBe(200);
    const [settlement] = await settlementsOf(id);
    // 2 × 123,400 ct = 246,800; VAT 46,892; gross 293,692.
    expect(settlement).toMatchObject({
      kind: 'letting',
      regime: 'wovermittg',
      net_cents: 246_800,
      vat_cents: 46_892,
      gross_cents: 293_692,
      lines: [
        {
          position: 1,
          party: 'tenant',
          base_cents: 123_400,
          percent_milli: null,
          months_hundredths: 200,
          net_cents: 246_800,
          vat_rate_basis_points: 1900,
          vat_cents: 46_892,
          gross_cents: 293_692,
          due_after_party: null,
        },
      ],
    });
  });

  it('creates no settlement without commission terms or with all rates 0', async () => {
    const none = await active({ purchase_price_eur: 300_000 });
    const zero = await active({
      purchase_price_eur: 300_000,
      commission: { seller_percent: 0, engaged_by: 'seller', note: 'none' },
    });
    for (const id of [none, zero]) {
      expect((await ctx.send('POST', `/v1/properties/${id}/mark-sold`)).statusCode).toBe(200);
      expect(await settlementsOf(id)).toEqual([]);
      expect(await eventOf(id)).toEqual([]);
    }
  });

  it('rolls the status change back when the terms break a rule at settlement (§3 Abs. 2 WoVermittG): no settlement, no event', async () => {
    // Checked as a sale when set (the property had only a purchase price); let, the tenant's 3 months break the cap.
    const id = await active({ purchase_price_eur: 300_000, commission: { tenant_months: 3, engaged_by: 'buyer' } });
    const res = await ctx.send('POST', `/v1/properties/${id}/mark-rented`, {
      cold_rent_eur: 1_000,
      date: '2026-06-01',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'commission.tenant_months', reason: 'not_allowed' }],
    });
    expect(res.json().message).toContain('§3 Abs. 2 WoVermittG');
    const property = (await ctx.send('GET', `/v1/properties/${id}`)).json();
    expect(property).toMatchObject({ status: 'active', transaction: null });
    expect(await settlementsOf(id)).toEqual([]);
    expect(await eventOf(id)).toEqual([]);
  });

  it('answers an unknown settlement with 404', async () => {
    expect((await ctx.send('GET', '/v1/settlements/stl_missing')).statusCode).toBe(404);
  });
});

describe("the spec's Commission example and terms that depend on who engaged the broker", () => {
  it("§656c/§656d BGB: equal shares without engaged_by are accepted on create and settle, the buyer's share due after the seller's", async () => {
    const res = await ctx.send('POST', '/v1/properties', {
      ...apartment,
      purchase_price_eur: 420_000,
      commission: { buyer_percent: 3.57, seller_percent: 3.57 },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().commission).toMatchObject({
      buyer_percent: 3.57,
      seller_percent: 3.57,
      engaged_by: null,
      buyer_is_consumer: true,
    });
    const id = res.json().id as string;
    expect((await ctx.send('POST', `/v1/properties/${id}/activate`)).statusCode).toBe(200);
    const sold = await ctx.send('POST', `/v1/properties/${id}/mark-sold`, { price_eur: 420_000, date: '2026-06-15' });
    expect(sold.statusCode, sold.body).toBe(200);
    const line = {
      base_cents: 42_000_000,
      percent_milli: 3570,
      net_cents: 1_499_400,
      vat_cents: 284_886,
      gross_cents: 1_784_286,
    };
    expect((await settlementsOf(id))[0]).toMatchObject({
      regime: 'bgb_656d',
      lines: [
        { party: 'seller', ...line, due_after_party: null },
        { party: 'buyer', ...line, due_after_party: 'seller' },
      ],
    });
  });

  it.each([
    [
      '§656c/§656d BGB',
      'sold',
      { purchase_price_eur: 400_000, commission: { buyer_percent: 3 } },
      { price_eur: 400_000, date: '2026-06-01' },
    ],
    [
      '§2 Abs. 1a WoVermittG',
      'rented',
      { purchase_price_eur: undefined, cold_rent_eur: 900, commission: { tenant_months: 2 } },
      { cold_rent_eur: 900, date: '2026-06-01' },
    ],
  ])(
    '%s: terms lawful only for one engagement are stored without engaged_by; marking the deal asks for it (422, rolled back) and settles once it is given',
    async (rule, status, fields, deal) => {
      const id = await active(fields);
      const action = `/v1/properties/${id}/mark-${status}`;
      const refused = await ctx.send('POST', action, deal);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        code: 'validation_failed',
        details: [{ field: 'commission.engaged_by', reason: 'missing' }],
      });
      expect(refused.json().message).toContain(rule);
      expect((await ctx.send('GET', `/v1/properties/${id}`)).json()).toMatchObject({
        status: 'active',
        transaction: null,
      });
      expect(await settlementsOf(id)).toEqual([]);

      const engaged = await ctx.send('PATCH', `/v1/properties/${id}`, { commission: { engaged_by: 'buyer' } });
      expect(engaged.statusCode, engaged.body).toBe(200);
      expect((await ctx.send('POST', action, deal)).statusCode).toBe(200);
      expect(await settlementsOf(id)).toMatchObject([
        { lines: [{ party: status === 'sold' ? 'buyer' : 'tenant', due_after_party: null }] },
      ]);
    },
  );
});

describe('commission terms are refused when set', () => {
  it.each([
    [
      '§656d BGB: the buyer pays more than the engaging seller',
      { purchase_price_eur: 400_000, commission: { seller_percent: 2, buyer_percent: 3, engaged_by: 'seller' } },
      'commission.buyer_percent',
      'not_allowed',
      '§656d BGB',
    ],
    [
      '§656c BGB: unequal shares though both engaged',
      { purchase_price_eur: 400_000, commission: { seller_percent: 2, buyer_percent: 3, engaged_by: 'both' } },
      'commission.buyer_percent',
      'not_allowed',
      '§656c BGB',
    ],
    [
      '§3 Abs. 2 WoVermittG: more than two cold rents, even without engaged_by',
      { cold_rent_eur: 900, commission: { tenant_months: 3 } },
      'commission.tenant_months',
      'not_allowed',
      '§3 Abs. 2 WoVermittG',
    ],
    [
      '§2 Abs. 1a WoVermittG: the tenant pays though the landlord engaged',
      { cold_rent_eur: 900, commission: { tenant_months: 1, engaged_by: 'seller' } },
      'commission.tenant_months',
      'not_allowed',
      '§2 Abs. 1a WoVermittG',
    ],
    [
      '§3 Abs. 2 WoVermittG: more than two cold rents',
      { cold_rent_eur: 900, commission: { tenant_months: 2.5, engaged_by: 'buyer' } },
      'commission.tenant_months',
      'not_allowed',
      '§3 Abs. 2 WoVermittG',
    ],
  ])('on create — %s', async (_name, fields, field, reason, rule) => {
    const res = await ctx.send('POST', '/v1/properties', { ...apartment, ...fields });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field, reason }] });
    expect(res.json().message).toContain(rule);
  });

  it('accepts the same shares from a business buyer (buyer_is_consumer: false)', async () => {
    const res = await ctx.send('POST', '/v1/properties', {
      ...apartment,
      purchase_price_eur: 400_000,
      commission: { seller_percent: 2, buyer_percent: 3, engaged_by: 'seller', buyer_is_consumer: false },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().commission).toEqual({
      seller_percent: 2,
      buyer_percent: 3,
      engaged_by: 'seller',
      buyer_is_consumer: false,
      tenant_months: null,
      landlord_months: null,
      note: null,
    });
  });

  it('on PATCH — §656c BGB: unequal shares when both engaged; the property stays unchanged', async () => {
    const id = await active({
      purchase_price_eur: 400_000,
      commission: { seller_percent: 3, buyer_percent: 3, engaged_by: 'both' },
    });
    const res = await ctx.send('PATCH', `/v1/properties/${id}`, { commission: { buyer_percent: 4 } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'commission.buyer_percent', reason: 'not_allowed' }],
    });
    expect(res.json().message).toContain('§656c BGB');
    const property = (await ctx.send('GET', `/v1/properties/${id}`)).json();
    expect(property.commission).toMatchObject({
      seller_percent: 3,
      buyer_percent: 3,
      engaged_by: 'both',
      buyer_is_consumer: true,
    });

    const merged = await ctx.send('PATCH', `/v1/properties/${id}`, {
      commission: { buyer_percent: 2, seller_percent: 2 },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json().commission).toMatchObject({ seller_percent: 2, buyer_percent: 2, engaged_by: 'both' });
  });
});
