import { describe, expect, it } from 'vitest';
import {
  VAT_RATES,
  basisPointsOf,
  divideRounded,
  eurosToCents,
  monthsOf,
  monthsToHundredths,
  percentOf,
  percentToMilli,
  toScaledInteger,
  vatRateOn,
  withVat,
} from '../src/commission/money.js';

describe('converting API decimals to integers exactly', () => {
  it.each([
    [3.57, 3570],
    [2.975, 2975],
    [1.005, 1005], // 1.005 * 1000 in binary floats is 1004.9999999999999
    [7.14, 7140],
    [0, 0],
    [100, 100_000],
    [0.001, 1],
  ])('percent %s is %s thousandths of a percent', (percent, milli) => {
    expect(percentToMilli(percent)).toBe(milli);
  });

  it.each([3.5701, 0.0001, 1e-7, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses %s as a percentage instead of rounding it',
    (percent) => {
      expect(percentToMilli(percent)).toBeNull();
    },
  );

  it.each([
    [2, 200],
    [1.5, 150],
    [0.29, 29], // 0.29 * 100 in binary floats is 28.999999999999996
    [2.38, 238],
  ])('months %s are %s hundredths of a month', (months, hundredths) => {
    expect(monthsToHundredths(months)).toBe(hundredths);
  });

  it('refuses months with a third decimal', () => {
    expect(monthsToHundredths(1.005)).toBeNull();
  });

  it('reads exponent notation and negative values digit by digit', () => {
    expect(toScaledInteger(1e21, 0)).toBeNull(); // beyond the safe integer range
    expect(toScaledInteger(1e15, 0)).toBe(1_000_000_000_000_000);
    expect(toScaledInteger(5e-7, 7)).toBe(5);
    expect(toScaledInteger(-2.5, 1)).toBe(-25);
  });

  it('turns whole euros into cents and refuses fractions of a euro', () => {
    expect(eurosToCents(420_000)).toBe(42_000_000);
    expect(() => eurosToCents(1.5)).toThrow(RangeError);
  });
});

describe('the one rounding: half away from zero', () => {
  it.each([
    [5n, 10n, 1n],
    [4n, 10n, 0n],
    [15n, 10n, 2n],
    [14n, 10n, 1n],
    [-5n, 10n, -1n],
    [-4n, 10n, 0n],
    [-15n, 10n, -2n],
    [20n, 10n, 2n],
  ])('%s / %s rounds to %s', (numerator, denominator, expected) => {
    expect(divideRounded(numerator, denominator)).toBe(expected);
  });

  it('refuses a denominator that is not positive', () => {
    expect(() => divideRounded(1n, 0n)).toThrow(RangeError);
  });

  it('computes 3.57 % of 420,000 € exactly: 14,994.00 €', () => {
    expect(percentOf(42_000_000, 3570)).toBe(1_499_400);
  });

  it('rounds a percentage at the half cent up: 2.5 % of 100,001 € = 2,500.025 € → 2,500.03 €', () => {
    expect(percentOf(10_000_100, 2500)).toBe(250_003);
    // 2.499 % of 100,001 € = 2,499.02499 € → 2,499.02 €
    expect(percentOf(10_000_100, 2499)).toBe(249_902);
  });

  it('rounds VAT at the half cent up: 19 % of 2,500.50 € = 475.095 € → 475.10 €', () => {
    expect(basisPointsOf(250_050, 1900)).toBe(47_510);
    expect(basisPointsOf(250_049, 1900)).toBe(47_509); // 475.0931 €
  });

  it('takes months of a monthly rent: 1.5 × 1,234.01 € = 1,851.015 € → 1,851.02 €', () => {
    expect(monthsOf(123_401, 150)).toBe(185_102);
    expect(monthsOf(125_000, 200)).toBe(250_000);
  });

  it('stays exact at the largest price the schema allows', () => {
    // 2,147,483,647 € × 2.975 % = 63,887,638.49825 € → 63,887,638.50 €
    expect(percentOf(214_748_364_700, 2975)).toBe(6_388_763_850);
    // cents × thousandths exceeds 2^53 here: 21,474,621,721,735,299 / 100,000 → 214,746,217,217
    expect(percentOf(214_748_364_701, 99_999)).toBe(214_746_217_217);
  });

  it('refuses amounts and rates that are not integers', () => {
    expect(() => percentOf(10.5, 3570)).toThrow(RangeError);
    expect(() => percentOf(100, 3.57)).toThrow(RangeError);
  });
});

describe('the VAT rate table', () => {
  it.each([
    ['2007-01-01', 1900],
    ['2019-12-31', 1900],
    ['2020-06-30', 1900],
    ['2020-07-01', 1600],
    ['2020-10-15', 1600],
    ['2020-12-31', 1600],
    ['2021-01-01', 1900],
    ['2026-03-01', 1900],
  ])('on %s the rate is %s basis points', (date, rate) => {
    expect(vatRateOn(date)).toBe(rate);
  });

  it('knows no rate before 2007-01-01', () => {
    expect(() => vatRateOn('2006-12-31')).toThrow(RangeError);
  });

  it.each(['2020-02-30', '2020-13-01', '20200701', '2020-07-01T00:00:00Z', ''])('refuses %j as a date', (date) => {
    expect(() => vatRateOn(date)).toThrow(TypeError);
  });

  it('has contiguous periods, each starting the day after the previous one ends, the last one open', () => {
    for (let i = 1; i < VAT_RATES.length; i += 1) {
      const previousEnd = VAT_RATES[i - 1].until;
      expect(previousEnd).not.toBeNull();
      const next = new Date(`${previousEnd}T00:00:00Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      expect(VAT_RATES[i].from).toBe(next.toISOString().slice(0, 10));
    }
    expect(VAT_RATES.at(-1)?.until).toBeNull();
  });

  it('adds VAT to a net amount: 14,994.00 € + 19 % = 2,848.86 € VAT, 17,842.86 € gross', () => {
    expect(withVat(1_499_400, '2026-03-01')).toEqual({
      net_cents: 1_499_400,
      vat_rate_basis_points: 1900,
      vat_cents: 284_886,
      gross_cents: 1_784_286,
    });
  });

  it('adds 16 % in the second half of 2020: 14,994.00 € → 2,399.04 € VAT, 17,393.04 € gross', () => {
    expect(withVat(1_499_400, '2020-09-01')).toEqual({
      net_cents: 1_499_400,
      vat_rate_basis_points: 1600,
      vat_cents: 239_904,
      gross_cents: 1_739_304,
    });
  });
});
