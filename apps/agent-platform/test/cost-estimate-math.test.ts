import { describe, expect, it } from 'vitest';
import {
  estimateExpected,
  estimateRecorded,
  microToText,
  roundHalfUp,
  toMicro,
  trailingMonths,
} from '../src/cost-estimates/estimate.js';

describe('fixed-point quantities and the one rounding', () => {
  it.each([
    ['12.5', 12_500_000n],
    ['0.000001', 1n],
    ['3', 3_000_000n],
    ['100.250000', 100_250_000n],
  ])('%s is %s millionths', (text, micro) => {
    expect(toMicro(text)).toBe(micro);
  });

  it('refuses more than six decimals and negative numbers', () => {
    expect(() => toMicro('1.0000001')).toThrow(RangeError);
    expect(() => toMicro('-1')).toThrow(RangeError);
  });

  it.each([
    [2_500_000n, 1n, 3], // 2.5 cents → 3 (half up)
    [2_499_999n, 1n, 2],
    [0n, 1n, 0],
    [1_500_000n, 3n, 1], // 1.5 / 3 = 0.5 → 1
    [2_401_080_000n, 3n, 800], // 2401.08 / 3 = 800.36 → 800
  ])('%s millionths of a cent ÷ %s → %s cents', (micro, divisor, cents) => {
    expect(roundHalfUp(micro, divisor)).toBe(cents);
  });

  it('prints quantities without trailing zeros', () => {
    expect(microToText(12_500_000n)).toBe('12.5');
    expect(microToText(3_000_000n)).toBe('3');
    expect(microToText(1n)).toBe('0.000001');
  });
});

describe('estimateExpected', () => {
  it('is rate × quantity: 120 cents per_1k_tokens × 250 = 30,000 cents', () => {
    expect(estimateExpected({ amount_cents: 120, unit: 'per_1k_tokens' }, '250', 'per_1k_tokens')).toEqual({
      estimable: true,
      quantity: '250',
      unit: 'per_1k_tokens',
      monthly_cents: 30_000,
      reason: '120 cents per_1k_tokens × 250 = 30000 cents a month.',
    });
  });

  it.each([
    ['0.5', 4], // 3.5 → 4
    ['0.214285', 1], // 1.499995 → 1
    ['1000000', 7_000_000],
  ])('7 cents per_request × %s = %s cents', (quantity, cents) => {
    expect(estimateExpected({ amount_cents: 7, unit: 'per_request' }, quantity, 'per_request').monthly_cents).toBe(
      cents,
    );
  });

  it('does not convert units: per_hour against per_month cannot be estimated, with the reason', () => {
    const result = estimateExpected({ amount_cents: 500, unit: 'per_hour' }, '1', 'per_month');
    expect(result).toMatchObject({ estimable: false, monthly_cents: null });
    expect(result.reason).toBe(
      'Cannot be estimated: the agent charges per_hour, the usage is given per_month; no conversion between these units is defined.',
    );
  });
});

describe('trailingMonths', () => {
  it('is the three full calendar months before the current one, across a year', () => {
    const window = trailingMonths(new Date('2026-01-10T08:00:00Z'));
    expect(window.months).toEqual(['2025-10', '2025-11', '2025-12']);
    expect(window.from.toISOString()).toBe('2025-10-01T00:00:00.000Z');
    expect(window.to.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});

describe('estimateRecorded', () => {
  const window = trailingMonths(new Date('2026-11-15T00:00:00Z'));
  const rate = { amount_cents: 120, unit: 'per_1k_tokens' as const };

  it('costs each month, the mean of the unrounded total (an empty month counts as 0) and the range', () => {
    // Aug 10.004 × 120 = 1200.48 → 1200; Sep 10.005 × 120 = 1200.6 → 1201; Oct none → 0; mean 2401.08 / 3 = 800.36 → 800
    const result = estimateRecorded(rate, window, [
      { month: '2026-08', quantity: '10.004000' },
      { month: '2026-09', quantity: '10.005000' },
    ]);
    expect(result).toMatchObject({
      estimable: true,
      from: '2026-08-01T00:00:00.000Z',
      to: '2026-11-01T00:00:00.000Z',
      months: [
        { month: '2026-08', quantity: '10.004', cost_cents: 1200 },
        { month: '2026-09', quantity: '10.005', cost_cents: 1201 },
        { month: '2026-10', quantity: '0', cost_cents: 0 },
      ],
      mean_monthly_cents: 800,
      min_monthly_cents: 0,
      max_monthly_cents: 1201,
    });
  });

  it('rounds the mean half up once: 3 cents × 0.5 in one month → mean 0.5 → 1 cent', () => {
    const result = estimateRecorded({ amount_cents: 3, unit: 'per_hour' }, window, [
      { month: '2026-10', quantity: '0.5' },
    ]);
    expect(result).toMatchObject({ mean_monthly_cents: 1, min_monthly_cents: 0, max_monthly_cents: 2 });
  });

  it('is not estimable without usage in the window', () => {
    expect(estimateRecorded(rate, window, [])).toMatchObject({
      estimable: false,
      months: [],
      mean_monthly_cents: null,
      reason: 'No usage recorded in per_1k_tokens in 2026-08, 2026-09, 2026-10.',
    });
  });
});
