import { describe, expect, it } from 'vitest';
import {
  VALUATION_METHOD_VERSION,
  lookbackStart,
  quantile,
  roundHalfUp,
  valuate,
  type ComparableInput,
  type ValuationSubject,
} from '../src/valuations/method.js';

// Subject of most tests: an apartment for sale in 10115, 100 m², built 2000, valued on 2026-06-30.
// The 36-month window is therefore 2023-06-30 … 2026-06-30, the area window 70 … 130 m², the
// year window 1975 … 2025.
const subject = (over: Partial<ValuationSubject> = {}): ValuationSubject => ({
  type: 'apartment',
  marketing: 'sale',
  postal_code: '10115',
  living_area_sqm: 100,
  year_built: 2000,
  as_of: '2026-06-30',
  ...over,
});

/** The summary when nothing is outside the selection. */
const none = {
  count: 0,
  by_reason: { postal_code: 0, date: 0, no_area_or_price: 0, living_area: 0, year_built_unknown: 0, year_built: 0 },
};
const excludedBy = (by_reason: Partial<typeof none.by_reason>) => ({
  count: Object.values(by_reason).reduce((a, b) => a + b, 0),
  by_reason: { ...none.by_reason, ...by_reason },
});

let seq = 0;
const comp = (price_eur: number, over: Partial<ComparableInput> = {}): ComparableInput => ({
  id: `c${String(++seq).padStart(3, '0')}`,
  type: 'apartment',
  marketing: 'sale',
  postal_code: '10115',
  living_area_sqm: 100,
  year_built: 2000,
  price_eur,
  date: '2026-01-15',
  source: 'own',
  ...over,
});

/** n comparables at 100 m², built 2000 (no adjustment), with these prices per m². */
const plain = (perSqm: number[], over: Partial<ComparableInput> = {}): ComparableInput[] =>
  perSqm.map((p) => comp(p * 100, over));

// The worked example: six comparables, every step by hand.
//   id  area  built  price     raw €/m²  area factor            age factor              adjusted €/m²
//   a1  100   2000   400 000   4000      1.0000 (same)          1.0000 (same)           4000
//   a2  120   2000   456 000   3800      1.0400 (+20 % → +4 %)  1.0000                  3952
//   a3   80   2010   360 000   4500      0.9600 (−20 % → −4 %)  0.9500 (10 y newer)     4500 × 0.96 × 0.95 = 4104
//   a4  100   1990   380 000   3800      1.0000                 1.0500 (10 y older)     3990
//   a5  110   2000   440 000   4000      1.0200 (+10 % → +2 %)  1.0000                  4080
//   a6   90   2000   369 000   4100      0.9800 (−10 % → −2 %)  1.0000                  4018
// Sorted: 3952, 3990, 4000, 4018, 4080, 4104 (n = 6, type 7: h = 5p).
//   Q1: h = 1.25 → 3990 + 0.25 × (4000 − 3990) = 3992.5
//   median: h = 2.5 → 4000 + 0.5 × (4018 − 4000) = 4009
//   Q3: h = 3.75 → 4018 + 0.75 × (4080 − 4018) = 4064.5
//   IQR = 72 → fences 3992.5 − 108 = 3884.5 and 4064.5 + 108 = 4172.5: nothing dropped.
//   estimate = 4009 × 100 = 400 900; range 3992.5 × 100 = 399 250 … 4064.5 × 100 = 406 450.
//   spread = 72 / 4009 = 0.01796 → 0.018; 6 usable (< 10) → medium.
const worked = (): ComparableInput[] => [
  comp(400_000, { id: 'a1', date: '2026-03-01' }),
  comp(456_000, { id: 'a2', living_area_sqm: 120, date: '2026-02-01' }),
  comp(360_000, { id: 'a3', living_area_sqm: 80, year_built: 2010, date: '2026-02-01' }),
  comp(380_000, { id: 'a4', year_built: 1990, date: '2025-12-01' }),
  comp(440_000, { id: 'a5', living_area_sqm: 110, date: '2025-11-01', source: 'imported' }),
  comp(369_000, { id: 'a6', living_area_sqm: 90, date: '2025-10-01' }),
];

describe('valuation method: the worked example', () => {
  it('adjusts each price per m², takes the median × area and the interquartile range, with the version', () => {
    const v = valuate(subject(), worked());
    expect(v.method_version).toBe(VALUATION_METHOD_VERSION);
    expect(VALUATION_METHOD_VERSION).toBe('comparison/1');
    expect(v.estimate_eur).toBe(400_900);
    expect(v.range_eur).toEqual({ low: 399_250, high: 406_450 });
    expect(v.price_per_sqm_eur).toBe(4009);
    expect(v.statistics).toEqual({
      usable_count: 6,
      q1_per_sqm: 3992.5,
      median_per_sqm: 4009,
      q3_per_sqm: 4064.5,
      spread: 0.018,
    });
    expect(v.confidence).toBe('medium');
    expect(v.reason).toBeNull();
    expect(v.selection).toMatchObject({ postal_code_prefix: '10115', widened: false });
    expect(v.excluded).toEqual(none);

    const byId = Object.fromEntries(v.comparables.map((c) => [c.id, c]));
    expect(byId.a3).toMatchObject({
      raw_price_eur: 360_000,
      raw_price_per_sqm: 4500,
      adjusted_price_per_sqm: 4104,
      dropped: null,
      dropped_reason: null,
    });
    expect(byId.a3.adjustments).toEqual([
      { kind: 'area', factor: 0.96, explanation: 'living area 80 m² is 20.00 % smaller than 100 m²: −4.00 % per m²' },
      { kind: 'age', factor: 0.95, explanation: 'built 2010, 10 years newer than 2000: −5.00 % per m²' },
    ]);
    expect(byId.a2.adjustments.map((a) => a.factor)).toEqual([1.04, 1]);
    expect(byId.a4.adjustments.map((a) => a.factor)).toEqual([1, 1.05]);
    expect(byId.a5).toMatchObject({ source: 'imported', adjusted_price_per_sqm: 4080 });
    expect(byId.a6.adjusted_price_per_sqm).toBe(4018);
  });

  it('lists the comparables newest first, then by id', () => {
    const v = valuate(subject(), worked().reverse());
    expect(v.comparables.map((c) => c.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
  });

  it('rounds half up once, at the end (150 000.5 → 150 001, not 150 000 from binary noise)', () => {
    // 50 m² subject and comparables, built 2000: no adjustment. Per m²: 2980, 2990, 3000, 3000.02, 3010, 3020.
    //   median h = 2.5 → (3000 + 3000.02) / 2 = 3000.01 → × 50 = 150 000.5 → 150 001
    //   Q1 h = 1.25 → 2990 + 0.25 × 10 = 2992.5 → 149 625
    //   Q3 h = 3.75 → 3000.02 + 0.75 × 9.98 = 3007.505 → 150 375.25 → 150 375
    const prices = [149_000, 149_500, 150_000, 150_001, 150_500, 151_000];
    const v = valuate(
      subject({ living_area_sqm: 50 }),
      prices.map((p) => comp(p, { living_area_sqm: 50 })),
    );
    expect(v.estimate_eur).toBe(150_001);
    expect(v.range_eur).toEqual({ low: 149_625, high: 150_375 });
    expect(v.price_per_sqm_eur).toBe(3000.01);
  });
});

describe('valuation method: outliers', () => {
  it('drops a comparable beyond Q3 + 1.5 × IQR and says why, the estimate stands on the rest', () => {
    // The worked six plus a7 at 6000 €/m². Sorted (n = 7, h = 6p): 3952, 3990, 4000, 4018, 4080, 4104, 6000.
    //   Q1 h = 1.5 → 3990 + 0.5 × 10 = 3995; Q3 h = 4.5 → 4080 + 0.5 × 24 = 4092; IQR = 97
    //   fences 3995 − 145.5 = 3849.5 and 4092 + 145.5 = 4237.5 → 6000 is an outlier.
    // Without it, the worked example again: 400 900.
    const v = valuate(subject(), [...worked(), comp(600_000, { id: 'a7' })]);
    const a7 = v.comparables.find((c) => c.id === 'a7');
    expect(a7).toMatchObject({ dropped: 'outlier', adjusted_price_per_sqm: 6000 });
    expect(a7?.dropped_reason).toBe('adjusted 6000 €/m² outside 3849.5 – 4237.5 €/m² (Q1 − 1.5 × IQR, Q3 + 1.5 × IQR)');
    expect(v.comparables.filter((c) => c.dropped !== null)).toHaveLength(1);
    // An outlier is inside the selection: listed, not counted as excluded.
    expect(v.comparables).toHaveLength(7);
    expect(v.excluded).toEqual(none);
    expect(v.estimate_eur).toBe(400_900);
    expect(v.statistics?.usable_count).toBe(6);
  });
});

describe('valuation method: selection filters', () => {
  const reasonOf = (list: ComparableInput[], id: string) =>
    valuate(subject(), list).comparables.find((c) => c.id === id);
  const listed = (list: ComparableInput[]) => valuate(subject(), list).comparables.map((c) => c.id);

  it('counts transactions of the last 36 months up to the as-of date, both days included', () => {
    expect(lookbackStart('2026-06-30')).toBe('2023-06-30');
    expect(lookbackStart('2028-02-29')).toBe('2025-02-28');
    const list = [
      comp(400_000, { id: 'in', date: '2023-06-30' }),
      comp(400_000, { id: 'old', date: '2023-06-29' }),
      comp(400_000, { id: 'future', date: '2026-07-01' }),
    ];
    expect(reasonOf(list, 'in')?.dropped).toBeNull();
    // 2023-06-29 (one day before the window) and 2026-07-01 (after the as-of date): outside, counted, not listed.
    expect(listed(list)).toEqual(['in']);
    expect(valuate(subject(), list).excluded).toEqual(excludedBy({ date: 2 }));
  });

  it('keeps living areas within ±30 % (70 and 130 m² in, 69.9 and 130.5 m² out) and caps the area factor at ±5 %', () => {
    const list = [
      comp(280_000, { id: 'a70', living_area_sqm: 70 }),
      comp(520_000, { id: 'a130', living_area_sqm: 130 }),
      comp(280_000, { id: 'a69', living_area_sqm: 69.9 }),
      comp(520_000, { id: 'a131', living_area_sqm: 130.5 }),
    ];
    // 70 m²: −30 % → −6 %, capped at −5 % → 0.95; 130 m²: +30 % → +6 %, capped → 1.05.
    expect(reasonOf(list, 'a70')?.adjustments[0]).toEqual({
      kind: 'area',
      factor: 0.95,
      explanation: 'living area 70 m² is 30.00 % smaller than 100 m²: −5.00 % per m², capped',
    });
    expect(reasonOf(list, 'a130')?.adjustments[0].factor).toBe(1.05);
    // 69.9 and 130.5 m²: outside 70 – 130 m², counted, not listed.
    expect(listed(list).sort()).toEqual(['a130', 'a70']);
    expect(valuate(subject(), list).excluded).toEqual(excludedBy({ living_area: 2 }));
  });

  it('keeps years built within ±25 years (1975 and 2025 in, 1974 and 2026 out) and caps the age factor at ±10 %', () => {
    const list = [
      comp(400_000, { id: 'y1975', year_built: 1975 }),
      comp(400_000, { id: 'y2025', year_built: 2025 }),
      comp(400_000, { id: 'y1974', year_built: 1974 }),
      comp(400_000, { id: 'y2026', year_built: 2026 }),
      comp(400_000, { id: 'ynull', year_built: null }),
    ];
    // 1975: 25 years older → +12.5 %, capped at +10 % → 1.10; 2025: 25 years newer → −12.5 % → 0.90.
    expect(reasonOf(list, 'y1975')?.adjustments[1]).toEqual({
      kind: 'age',
      factor: 1.1,
      explanation: 'built 1975, 25 years older than 2000: +10.00 % per m², capped',
    });
    expect(reasonOf(list, 'y2025')?.adjustments[1].factor).toBe(0.9);
    // 1974 and 2026: outside 1975 – 2025; no year built: unknown. Counted, not listed.
    expect(listed(list).sort()).toEqual(['y1975', 'y2025']);
    expect(valuate(subject(), list).excluded).toEqual(excludedBy({ year_built: 2, year_built_unknown: 1 }));
  });

  it('without a year built for the subject, applies neither the age filter nor an age factor', () => {
    const v = valuate(subject({ year_built: null }), plain([4000, 4000, 4000, 4000, 4000], { year_built: 1900 }));
    expect(v.estimate_eur).toBe(400_000);
    expect(v.comparables.every((c) => c.adjustments.length === 1 && c.adjustments[0].kind === 'area')).toBe(true);
    expect(v.comparables).toHaveLength(5);
    expect(v.excluded).toEqual(none);
  });

  it('separates rent from sale and one type from another', () => {
    // Rent: monthly cold rents 1150 … 1250 for 100 m² → 11.5, 11.8, 12, 12.2, 12.5 €/m²; median 12 → 1 200 € a month.
    // Q1 = 11.8 → 1 180, Q3 = 12.2 → 1 220.
    const rents = [1150, 1180, 1200, 1220, 1250].map((p, i) => comp(p, { id: `r${i}`, marketing: 'rent' }));
    const sales = plain([4000, 4000, 4000, 4000, 4000]);
    const houses = [1, 2, 3, 4, 5].map((i) => comp(1300, { id: `h${i}`, type: 'house', marketing: 'rent' }));
    const rent = valuate(subject({ marketing: 'rent' }), [...sales, ...rents, ...houses]);
    expect(rent.estimate_eur).toBe(1200);
    expect(rent.range_eur).toEqual({ low: 1180, high: 1220 });
    expect(rent.price_per_sqm_eur).toBe(12);
    expect(rent.comparables.map((c) => c.id).sort()).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    // Another marketing or type is not a candidate at all: neither listed nor counted.
    expect(rent.excluded).toEqual(none);
    const sale = valuate(subject(), [...sales, ...rents, ...houses]);
    expect(sale.estimate_eur).toBe(400_000);
    expect(sale.comparables).toHaveLength(5);
  });
});

describe('valuation method: widening the postal code', () => {
  it('widens to the first 3 digits when the full code has fewer than 5 usable comparables, and says so', () => {
    const list = [
      ...plain([4000, 4000], { postal_code: '10115' }),
      ...plain([4000, 4000, 4000], { postal_code: '10117' }),
      comp(400_000, { id: 'far', postal_code: '10405' }),
    ];
    const v = valuate(subject(), list);
    expect(v.selection).toEqual({
      postal_code_prefix: '101',
      widened: true,
      reason:
        '2 usable in postal code 10115 (fewer than 5): widened to postal codes starting with 101; 5 usable in postal codes starting with 101',
    });
    expect(v.estimate_eur).toBe(400_000);
    // 10405 does not start with 101: counted, not listed; the five of 101xx are.
    expect(v.comparables.map((c) => c.id)).not.toContain('far');
    expect(v.comparables).toHaveLength(5);
    expect(v.excluded).toEqual(excludedBy({ postal_code: 1 }));
  });

  it('widens to the first 2 digits when 3 are not enough either, never further', () => {
    const list = [
      ...plain([4000, 4000], { postal_code: '10115' }),
      ...plain([4000], { postal_code: '10117' }),
      ...plain([4000, 4000], { postal_code: '10405' }),
      comp(400_000, { id: 'hamburg', postal_code: '20095' }),
    ];
    const v = valuate(subject(), list);
    expect(v.selection.postal_code_prefix).toBe('10');
    expect(v.selection.reason).toBe(
      '2 usable in postal code 10115 (fewer than 5); 3 usable in postal codes starting with 101 (fewer than 5): widened to postal codes starting with 10; 5 usable in postal codes starting with 10',
    );
    expect(v.estimate_eur).toBe(400_000);
    expect(v.comparables.map((c) => c.id)).not.toContain('hamburg');
    expect(v.excluded).toEqual(excludedBy({ postal_code: 1 }));
  });

  it('answers null with the reason when even 2 digits give fewer than 5 usable comparables — never a guess', () => {
    const v = valuate(subject(), [
      ...plain([4000, 4000], { postal_code: '10115' }),
      ...plain([4000, 4000], { postal_code: '10999' }),
      comp(400_000, { postal_code: '20095' }),
    ]);
    expect(v).toMatchObject({
      estimate_eur: null,
      range_eur: null,
      price_per_sqm_eur: null,
      confidence: null,
      statistics: null,
      method_version: 'comparison/1',
    });
    expect(v.reason).toBe(
      'only 4 usable comparables in postal codes starting with 10, at least 5 are needed: no estimate',
    );
    expect(v.selection).toMatchObject({ postal_code_prefix: '10', widened: true });
    // The four of 10xxx are listed (the selection, without an estimate); 20095 is counted.
    expect(v.comparables).toHaveLength(4);
    expect(v.excluded).toEqual(excludedBy({ postal_code: 1 }));
  });

  it('decides the levels up to a prefix from the comparables under it alone (what the service reads level by level)', () => {
    // All candidates vs. only those under 101: the same valuation when the selection stops at 101,
    // except that the 10405 one is not counted when it is not given.
    const list = [
      ...plain([4000, 4000], { postal_code: '10115' }),
      ...plain([4100, 4200, 3900], { postal_code: '10117' }),
      comp(400_000, { id: 'far', postal_code: '10405' }),
    ];
    const all = valuate(subject(), list);
    const under101 = valuate(
      subject(),
      list.filter((c) => c.postal_code.startsWith('101')),
    );
    expect(all.selection.postal_code_prefix).toBe('101');
    expect({ ...under101, excluded: all.excluded }).toEqual(all);
    expect(under101.excluded).toEqual(none);
  });

  it('answers null when the property has no living area', () => {
    const v = valuate(subject({ living_area_sqm: null }), plain([4000, 4000, 4000, 4000, 4000]));
    expect(v.estimate_eur).toBeNull();
    expect(v.reason).toMatch(/no living area/);
    expect(v).toMatchObject({ comparables: [], excluded: none });
  });
});

describe('valuation method: confidence at its thresholds', () => {
  it('type 7 quantiles by linear interpolation', () => {
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([7], 0.75)).toBe(7);
  });

  it('rounds half up through binary noise (1.005 → 1.01, where Math.round(1.005 × 100) gives 100)', () => {
    expect(Math.round(1.005 * 100)).toBe(100);
    expect(roundHalfUp(1.005, 2)).toBe(1.01);
    expect(roundHalfUp(4103.999999999999)).toBe(4104);
    expect(roundHalfUp(2.5)).toBe(3);
  });

  // n = 10, h = 9p: Q1 = x2 + 0.25(x3 − x2), median = (x4 + x5) / 2, Q3 = x6 + 0.75(x7 − x6).
  it('high at 10 usable and a spread of exactly 15 %', () => {
    // 3700 ×4, 4000 ×2, 4300 ×4 → Q1 3700, median 4000, Q3 4300; 600 / 4000 = 0.15.
    const v = valuate(subject(), plain([3700, 3700, 3700, 3700, 4000, 4000, 4300, 4300, 4300, 4300]));
    expect(v.statistics).toMatchObject({ usable_count: 10, spread: 0.15 });
    expect(v.confidence).toBe('high');
  });

  it('medium at 10 usable and a spread just above 15 %', () => {
    // Q3 4304 → 604 / 4000 = 0.151.
    const v = valuate(subject(), plain([3700, 3700, 3700, 3700, 4000, 4000, 4304, 4304, 4304, 4304]));
    expect(v.statistics?.spread).toBe(0.151);
    expect(v.confidence).toBe('medium');
  });

  it('medium at 9 usable even with a spread of 15 %', () => {
    // n = 9, h = 8p: Q1 = x2 = 3700, median = x4 = 4000, Q3 = x6 = 4300.
    const v = valuate(subject(), plain([3700, 3700, 3700, 3700, 4000, 4300, 4300, 4300, 4300]));
    expect(v.statistics).toMatchObject({ usable_count: 9, spread: 0.15 });
    expect(v.confidence).toBe('medium');
  });

  it('medium at 5 usable and a spread of exactly 30 %, low just above', () => {
    // n = 5, h = 4p: Q1 = x1, median = x2, Q3 = x3. 3400, 3400, 4000, 4600, 4600 → 1200 / 4000 = 0.30.
    const medium = valuate(subject(), plain([3400, 3400, 4000, 4600, 4600]));
    expect(medium.statistics?.spread).toBe(0.3);
    expect(medium.confidence).toBe('medium');
    // Q3 4612 → 1212 / 4000 = 0.303.
    const low = valuate(subject(), plain([3400, 3400, 4000, 4612, 4612]));
    expect(low.statistics?.spread).toBe(0.303);
    expect(low.confidence).toBe('low');
    expect(low.estimate_eur).toBe(400_000);
  });
});
