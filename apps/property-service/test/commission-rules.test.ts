import { describe, expect, it } from 'vitest';
import {
  COMMISSION_RULES_VERSION,
  RULE_MESSAGES,
  commissionViolations,
  judgeCommission,
  settleCommission,
  type CommissionTerms,
  type PropertyType,
  type SettlementInput,
  type SettlementLine,
} from '../src/commission/rules.js';

const DAY = '2026-03-01';

const sale = (terms: CommissionTerms, over: Partial<SettlementInput> = {}): SettlementInput => ({
  property_type: 'apartment',
  marketing: 'sale',
  price_eur: 420_000,
  date: DAY,
  terms,
  ...over,
});

const letting = (terms: CommissionTerms, over: Partial<SettlementInput> = {}): SettlementInput => ({
  property_type: 'apartment',
  marketing: 'letting',
  price_eur: 1_250,
  date: DAY,
  terms,
  ...over,
});

/** 420,000 € × 3.57 % = 14,994.00 € net; 19 % VAT = 2,848.86 €; gross 17,842.86 €. */
const amounts357 = {
  base_cents: 42_000_000,
  percent_milli: 3570,
  months_hundredths: null,
  net_cents: 1_499_400,
  vat_rate_basis_points: 1900,
  vat_cents: 284_886,
  gross_cents: 1_784_286,
};

const lines = (input: SettlementInput): SettlementLine[] => {
  const result = settleCommission(input);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.violations)}`);
  return result.lines;
};

const refused = (field: string, message: string) => [{ field, reason: 'not_allowed', message }];

describe('§656c BGB: a broker engaged by both sides of an apartment or house sale to a consumer', () => {
  it.each<PropertyType>(['apartment', 'house'])(
    '§656c: %s, both pay 3.57 % → two equal lines, neither waits',
    (type) => {
      const result = settleCommission(
        sale({ buyer_percent: 3.57, seller_percent: 3.57, engaged_by: 'both' }, { property_type: type }),
      );
      expect(result).toEqual({
        ok: true,
        version: COMMISSION_RULES_VERSION,
        regime: 'bgb_656c',
        lines: [
          { party: 'seller', ...amounts357, due_after: null },
          { party: 'buyer', ...amounts357, due_after: null },
        ],
      });
    },
  );

  it.each([
    ['the buyer pays more', { buyer_percent: 3.57, seller_percent: 2.38 }],
    ['the seller pays more', { buyer_percent: 2.38, seller_percent: 3.57 }],
    ['the seller pays nothing (free for one side, so free for the other)', { buyer_percent: 3.57 }],
    ['the buyer pays nothing', { seller_percent: 3.57, buyer_percent: 0 }],
  ])('§656c: refuses different shares when %s', (_name, terms) => {
    const expected = refused('commission.buyer_percent', RULE_MESSAGES.equalShares);
    expect(commissionViolations('house', 'sale', { ...terms, engaged_by: 'both' })).toEqual(expected);
    expect(settleCommission(sale({ ...terms, engaged_by: 'both' }))).toEqual({
      ok: false,
      version: COMMISSION_RULES_VERSION,
      violations: expected,
    });
  });

  it('§656c: the message names the statute', () => {
    expect(RULE_MESSAGES.equalShares).toMatch(/^§656c BGB: /);
  });

  it('§656c: nothing agreed → no lines', () => {
    expect(lines(sale({ engaged_by: 'both' }))).toEqual([]);
  });
});

describe('§656d BGB: a broker engaged by one side of an apartment or house sale to a consumer', () => {
  it('§656d: engaged by the seller, the buyer pays the same → the buyer’s invoice is due after the seller’s', () => {
    expect(lines(sale({ buyer_percent: 3.57, seller_percent: 3.57, engaged_by: 'seller' }))).toEqual([
      { party: 'seller', ...amounts357, due_after: null },
      { party: 'buyer', ...amounts357, due_after: 'seller' },
    ]);
  });

  it('§656d: engaged by the seller, the buyer pays less (2 % of 420,000 € = 8,400.00 €, VAT 1,596.00 €)', () => {
    expect(lines(sale({ buyer_percent: 2, seller_percent: 3.57, engaged_by: 'seller' }))).toEqual([
      { party: 'seller', ...amounts357, due_after: null },
      {
        party: 'buyer',
        base_cents: 42_000_000,
        percent_milli: 2000,
        months_hundredths: null,
        net_cents: 840_000,
        vat_rate_basis_points: 1900,
        vat_cents: 159_600,
        gross_cents: 999_600,
        due_after: 'seller',
      },
    ]);
  });

  it('§656d: engaged by the buyer, the seller pays the same → the seller’s invoice is due after the buyer’s', () => {
    expect(
      lines(sale({ buyer_percent: 3.57, seller_percent: 3.57, engaged_by: 'buyer' }, { property_type: 'house' })),
    ).toEqual([
      { party: 'seller', ...amounts357, due_after: 'buyer' },
      { party: 'buyer', ...amounts357, due_after: null },
    ]);
  });

  it('§656d: the engaging side alone pays → one line, due at once', () => {
    expect(
      lines(sale({ seller_percent: 5.95, engaged_by: 'seller' })).map((l) => [l.party, l.net_cents, l.due_after]),
    ).toEqual([['seller', 2_499_000, null]]);
    expect(
      lines(sale({ buyer_percent: 5.95, engaged_by: 'buyer' })).map((l) => [l.party, l.net_cents, l.due_after]),
    ).toEqual([['buyer', 2_499_000, null]]);
  });

  it.each([
    [
      'seller',
      { buyer_percent: 3.571, seller_percent: 3.57 },
      'commission.buyer_percent',
      RULE_MESSAGES.buyerAtMostSeller,
    ],
    ['seller', { buyer_percent: 3.57 }, 'commission.buyer_percent', RULE_MESSAGES.buyerAtMostSeller],
    ['buyer', { buyer_percent: 2, seller_percent: 3.57 }, 'commission.seller_percent', RULE_MESSAGES.sellerAtMostBuyer],
    ['buyer', { seller_percent: 3.57 }, 'commission.seller_percent', RULE_MESSAGES.sellerAtMostBuyer],
  ] as const)(
    '§656d: engaged by the %s, refuses %j: the other side would pay more',
    (engagedBy, terms, field, message) => {
      const result = settleCommission(sale({ ...terms, engaged_by: engagedBy }));
      expect(result).toEqual({ ok: false, version: COMMISSION_RULES_VERSION, violations: refused(field, message) });
      expect(message).toMatch(/^§656d BGB: /);
    },
  );

  it("§656c/§656d: without engaged_by, equal shares are lawful (the spec's example: lawful whoever engaged the broker)", () => {
    expect(judgeCommission('apartment', 'sale', { buyer_percent: 3.57, seller_percent: 3.57 })).toEqual({
      verdict: 'lawful',
      violations: [],
    });
    expect(
      commissionViolations('house', 'sale', { buyer_percent: 3.57, seller_percent: 3.57, engaged_by: null }),
    ).toEqual([]);
  });

  it('§656d: without engaged_by, equal shares settle as engaged by the seller: the buyer’s invoice is due after the seller’s', () => {
    const result = settleCommission(sale({ buyer_percent: 3.57, seller_percent: 3.57 }));
    expect(result).toEqual({
      ok: true,
      version: COMMISSION_RULES_VERSION,
      regime: 'bgb_656d',
      lines: [
        { party: 'seller', ...amounts357, due_after: null },
        { party: 'buyer', ...amounts357, due_after: 'seller' },
      ],
    });
  });

  it.each([
    ['the buyer pays more (lawful only if the buyer engaged)', { buyer_percent: 3.57, seller_percent: 2.38 }],
    ['the buyer pays less (lawful only if the seller engaged)', { buyer_percent: 2.38, seller_percent: 3.57 }],
    ['the buyer alone pays (lawful only if the buyer engaged)', { buyer_percent: 3.57 }],
  ])(
    '§656c/§656d: without engaged_by, unequal shares are undecided when %s: not refused when set, refused at settlement',
    (_name, terms) => {
      const question = [{ field: 'commission.engaged_by', reason: 'missing', message: RULE_MESSAGES.engagedByMissing }];
      expect(judgeCommission('apartment', 'sale', terms)).toEqual({ verdict: 'undecided', violations: question });
      expect(commissionViolations('apartment', 'sale', terms)).toEqual(question);
      expect(settleCommission(sale(terms))).toEqual({
        ok: false,
        version: COMMISSION_RULES_VERSION,
        violations: question,
      });
      expect(RULE_MESSAGES.engagedByMissing).toMatch(/^§656c\/§656d BGB: /);
    },
  );

  it.each([
    ['both engaged, unequal shares', { buyer_percent: 3.57, seller_percent: 2.38, engaged_by: 'both' }],
    ['the seller engaged, the buyer pays more', { buyer_percent: 3.57, seller_percent: 2.38, engaged_by: 'seller' }],
    ['the buyer engaged, the seller pays more', { buyer_percent: 2.38, seller_percent: 3.57, engaged_by: 'buyer' }],
  ] as const)('§656c/§656d: %s is unlawful whoever asks (a definite violation)', (_name, terms) => {
    expect(judgeCommission('apartment', 'sale', terms)).toMatchObject({
      verdict: 'unlawful',
      violations: [{ reason: 'not_allowed' }],
    });
  });

  it('§656d: without engaged_by, a seller who pays alone reads as engaged by the seller', () => {
    const result = settleCommission(sale({ seller_percent: 3.57 }));
    expect(result).toMatchObject({
      ok: true,
      regime: 'bgb_656d',
      lines: [{ party: 'seller', ...amounts357, due_after: null }],
    });
  });
});

describe('sales outside §656a–d BGB are free', () => {
  it.each<[string, PropertyType, CommissionTerms]>([
    ['commercial', 'commercial', { buyer_percent: 6, seller_percent: 1, engaged_by: 'both' }],
    ['land', 'land', { buyer_percent: 7.14, engaged_by: 'seller' }],
    ['parking', 'parking', { buyer_percent: 5, seller_percent: 0 }],
    [
      'an apartment sold to a business',
      'apartment',
      { buyer_percent: 6, seller_percent: 1, engaged_by: 'both', buyer_is_consumer: false },
    ],
    [
      'a house sold to a business, engaged by the seller',
      'house',
      { buyer_percent: 7.14, engaged_by: 'seller', buyer_is_consumer: false },
    ],
  ])('free: %s takes any shares, nobody waits', (_name, type, terms) => {
    expect(commissionViolations(type, 'sale', terms)).toEqual([]);
    const result = settleCommission(sale(terms, { property_type: type }));
    expect(result).toMatchObject({ ok: true, regime: 'free_sale' });
    expect(result.ok && result.lines.every((line) => line.due_after === null)).toBe(true);
  });

  it('free: buyer_is_consumer defaults to true (null and absent both mean a consumer)', () => {
    const terms = { buyer_percent: 6, seller_percent: 1, engaged_by: 'both' } as const;
    expect(commissionViolations('apartment', 'sale', terms)).toHaveLength(1);
    expect(commissionViolations('apartment', 'sale', { ...terms, buyer_is_consumer: null })).toHaveLength(1);
    expect(commissionViolations('apartment', 'sale', { ...terms, buyer_is_consumer: true })).toHaveLength(1);
  });
});

describe('WoVermittG: residential lettings', () => {
  it.each([
    ['the landlord', 'seller'],
    ['both sides', 'both'],
  ] as const)(
    'WoVermittG §2 Abs. 1a: refuses a tenant share when %s engaged the broker (a definite violation)',
    (_name, engagedBy) => {
      const expected = refused('commission.tenant_months', RULE_MESSAGES.tenantOrdered);
      expect(judgeCommission('apartment', 'letting', { tenant_months: 1, engaged_by: engagedBy })).toEqual({
        verdict: 'unlawful',
        violations: expected,
      });
      expect(
        settleCommission(letting({ tenant_months: 1, engaged_by: engagedBy }, { property_type: 'house' })),
      ).toEqual({ ok: false, version: COMMISSION_RULES_VERSION, violations: expected });
      expect(RULE_MESSAGES.tenantOrdered).toMatch(/^§2 Abs\. 1a WoVermittG: /);
    },
  );

  it.each([undefined, null])(
    'WoVermittG §2 Abs. 1a: a tenant share up to two rents with engaged_by %s is undecided: not refused when set, refused at settlement',
    (engagedBy) => {
      const question = [{ field: 'commission.engaged_by', reason: 'missing', message: RULE_MESSAGES.tenantOrdered }];
      expect(judgeCommission('apartment', 'letting', { tenant_months: 2, engaged_by: engagedBy })).toEqual({
        verdict: 'undecided',
        violations: question,
      });
      expect(
        settleCommission(letting({ tenant_months: 2, engaged_by: engagedBy }, { property_type: 'house' })),
      ).toEqual({ ok: false, version: COMMISSION_RULES_VERSION, violations: question });
    },
  );

  it('WoVermittG §3 Abs. 2: more than two rents are refused even without engaged_by (no engagement makes them lawful)', () => {
    expect(judgeCommission('apartment', 'letting', { tenant_months: 2.5 })).toEqual({
      verdict: 'unlawful',
      violations: refused('commission.tenant_months', RULE_MESSAGES.tenantCap),
    });
  });

  it('WoVermittG §2 Abs. 1a: the landlord may pay when the landlord engaged the broker (1,250 € × 2.38 = 2,975.00 €, VAT 565.25 €)', () => {
    expect(lines(letting({ landlord_months: 2.38, engaged_by: 'seller' }))).toEqual([
      {
        party: 'landlord',
        base_cents: 125_000,
        percent_milli: null,
        months_hundredths: 238,
        net_cents: 297_500,
        vat_rate_basis_points: 1900,
        vat_cents: 56_525,
        gross_cents: 354_025,
        due_after: null,
      },
    ]);
  });

  it('WoVermittG §2 Abs. 1a + §3 Abs. 2: the tenant who engaged the broker pays two cold rents plus VAT (2,500.00 € + 475.00 € = 2,975.00 €)', () => {
    const result = settleCommission(letting({ tenant_months: 2, engaged_by: 'buyer' }));
    expect(result).toEqual({
      ok: true,
      version: COMMISSION_RULES_VERSION,
      regime: 'wovermittg',
      lines: [
        {
          party: 'tenant',
          base_cents: 125_000,
          percent_milli: null,
          months_hundredths: 200,
          net_cents: 250_000,
          vat_rate_basis_points: 1900,
          vat_cents: 47_500,
          gross_cents: 297_500,
          due_after: null,
        },
      ],
    });
  });

  it.each([2.01, 2.38, 3])(
    'WoVermittG §3 Abs. 2: refuses %s months from the tenant (at most two cold rents, net)',
    (months) => {
      expect(commissionViolations('house', 'letting', { tenant_months: months, engaged_by: 'buyer' })).toEqual(
        refused('commission.tenant_months', RULE_MESSAGES.tenantCap),
      );
      expect(RULE_MESSAGES.tenantCap).toMatch(/^§3 Abs\. 2 WoVermittG: /);
    },
  );

  it('WoVermittG §3 Abs. 2: the VAT of 1.5 rents rounds at the half cent up (1.5 × 1,235 € = 1,852.50 €; VAT 351.975 € → 351.98 €)', () => {
    expect(lines(letting({ tenant_months: 1.5, engaged_by: 'buyer' }, { price_eur: 1_235 }))).toEqual([
      {
        party: 'tenant',
        base_cents: 123_500,
        percent_milli: null,
        months_hundredths: 150,
        net_cents: 185_250,
        vat_rate_basis_points: 1900,
        vat_cents: 35_198,
        gross_cents: 220_448,
        due_after: null,
      },
    ]);
  });

  it.each<PropertyType>(['commercial', 'land', 'parking'])(
    'free: a %s letting takes any months from either side',
    (type) => {
      const result = settleCommission(
        letting({ tenant_months: 3, landlord_months: 1, engaged_by: 'seller' }, { property_type: type }),
      );
      expect(result).toMatchObject({
        ok: true,
        regime: 'free_letting',
        lines: [
          { party: 'landlord', net_cents: 125_000 },
          { party: 'tenant', net_cents: 375_000 },
        ],
      });
    },
  );
});

describe('rates, rounding and VAT dates of a settlement', () => {
  it('rounds the commission at the half cent up: 100,001 € × 2.5 % = 2,500.025 € → 2,500.03 €; VAT 475.0057 € → 475.01 €', () => {
    expect(
      lines(sale({ buyer_percent: 2.5, seller_percent: 2.5, engaged_by: 'both' }, { price_eur: 100_001 }))[0],
    ).toMatchObject({
      net_cents: 250_003,
      vat_cents: 47_501,
      gross_cents: 297_504,
    });
  });

  it.each([
    ['2020-06-30', 1900, 284_886],
    ['2020-07-01', 1600, 239_904],
    ['2020-12-31', 1600, 239_904],
    ['2021-01-01', 1900, 284_886],
  ])('a sale concluded on %s is taxed at %s basis points (VAT %s ct on 14,994.00 €)', (date, rate, vat) => {
    expect(lines(sale({ buyer_percent: 3.57, seller_percent: 3.57, engaged_by: 'both' }, { date }))[0]).toMatchObject({
      net_cents: 1_499_400,
      vat_rate_basis_points: rate,
      vat_cents: vat,
      gross_cents: 1_499_400 + vat,
    });
  });

  it.each([
    ['sale', { buyer_percent: 3.5701, engaged_by: 'buyer' }, 'commission.buyer_percent'],
    ['sale', { seller_percent: -1 }, 'commission.seller_percent'],
    ['letting', { tenant_months: 1.005, engaged_by: 'buyer' }, 'commission.tenant_months'],
    ['letting', { landlord_months: -0.5 }, 'commission.landlord_months'],
  ] as const)('a %s refuses %j as invalid_format instead of rounding it', (marketing, terms, field) => {
    expect(commissionViolations('apartment', marketing, terms)).toEqual([
      { field, reason: 'invalid_format', message: expect.stringContaining('at least 0') },
    ]);
  });

  it('each marketing ignores the other’s fields: a sale does not see tenant_months, a letting not the percentages', () => {
    expect(
      commissionViolations('apartment', 'sale', { tenant_months: 5, seller_percent: 3.57, engaged_by: 'seller' }),
    ).toEqual([]);
    expect(lines(letting({ buyer_percent: 50, seller_percent: 3, landlord_months: 1, engaged_by: 'seller' }))).toEqual([
      expect.objectContaining({ party: 'landlord', net_cents: 125_000 }),
    ]);
  });
});
