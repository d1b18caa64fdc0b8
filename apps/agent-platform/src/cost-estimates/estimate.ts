import type { ChargebackUnit } from '@platform/db';

/** Stored with every estimate; a change of the method below changes the version. */
export const COST_METHOD_VERSION = 'cost-2026-11';

export const ROUNDING =
  'Amounts are computed exactly (quantities in millionths of a unit, so rate × quantity is an integer in millionths of a cent) ' +
  'and rounded once, half up, to whole cents: per month for each monthly cost, and the mean from the unrounded three-month total.';

const MICRO = 1_000_000n;

/** Fixed-point text with up to six decimals (`"12.5"`, `"0.000001"`) → millionths of a unit. */
export function toMicro(quantity: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(quantity.trim());
  if (!match) throw new RangeError(`Not a quantity with up to six decimals: ${quantity}`);
  return BigInt(match[1]!) * MICRO + BigInt((match[2] ?? '').padEnd(6, '0'));
}

/** Millionths of a cent → whole cents, half up (amounts are never negative). */
export function roundHalfUp(microCents: bigint, divisor = 1n): number {
  const denominator = MICRO * divisor;
  return Number((microCents * 2n + denominator) / (denominator * 2n));
}

/** Millionths of a unit → text with the trailing zeros dropped (`12.5`, `3`). */
export function microToText(micro: bigint): string {
  const whole = micro / MICRO;
  const fraction = (micro % MICRO).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

export interface Rate {
  amount_cents: number;
  unit: ChargebackUnit;
}

/**
 * Units are never converted: a request, a thousand tokens, an hour and a month measure different
 * things, and no conversion between them is defined. A different unit → not estimable, with the reason.
 */
export function unitMismatch(rate: Rate, unit: ChargebackUnit): string | null {
  return rate.unit === unit
    ? null
    : `Cannot be estimated: the agent charges ${rate.unit}, the usage is given ${unit}; no conversion between these units is defined.`;
}

export interface ExpectedEstimate {
  estimable: boolean;
  quantity: string;
  unit: ChargebackUnit;
  monthly_cents: number | null;
  reason: string;
}

/** Rate × expected monthly quantity, rounded half up once. */
export function estimateExpected(rate: Rate, quantity: string, unit: ChargebackUnit): ExpectedEstimate {
  const text = microToText(toMicro(quantity));
  const mismatch = unitMismatch(rate, unit);
  if (mismatch) return { estimable: false, quantity: text, unit, monthly_cents: null, reason: mismatch };
  const cents = roundHalfUp(BigInt(rate.amount_cents) * toMicro(quantity));
  return {
    estimable: true,
    quantity: text,
    unit,
    monthly_cents: cents,
    reason: `${rate.amount_cents} cents ${unit} × ${text} = ${cents} cents a month.`,
  };
}

export interface MonthQuantity {
  /** `YYYY-MM` */
  month: string;
  /** Sum of the month's usage, fixed-point text. */
  quantity: string;
}

export interface RecordedEstimate {
  estimable: boolean;
  from: string;
  to: string;
  months: { month: string; quantity: string; cost_cents: number }[];
  mean_monthly_cents: number | null;
  min_monthly_cents: number | null;
  max_monthly_cents: number | null;
  reason: string;
}

/** The trailing three full calendar months (UTC) before `now`'s month: [from, to). */
export function trailingMonths(now: Date, count = 3): { from: Date; to: Date; months: string[] } {
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - count, 1));
  const months = Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + i, 1)).toISOString().slice(0, 7),
  );
  return { from, to, months };
}

/**
 * The recorded usage of each month of the window × the rate: mean (a month without usage counts as
 * 0) and range min–max. No usage at all in the window → not estimable.
 */
export function estimateRecorded(
  rate: Rate,
  window: { from: Date; to: Date; months: string[] },
  usage: MonthQuantity[],
): RecordedEstimate {
  const byMonth = new Map(usage.map((u) => [u.month, toMicro(u.quantity)]));
  const base = { from: window.from.toISOString(), to: window.to.toISOString() };
  if (![...byMonth.values()].some((q) => q > 0n)) {
    return {
      estimable: false,
      ...base,
      months: [],
      mean_monthly_cents: null,
      min_monthly_cents: null,
      max_monthly_cents: null,
      reason: `No usage recorded in ${rate.unit} in ${window.months.join(', ')}.`,
    };
  }
  const micros = window.months.map((month) => BigInt(rate.amount_cents) * (byMonth.get(month) ?? 0n));
  const months = window.months.map((month, i) => ({
    month,
    quantity: microToText(byMonth.get(month) ?? 0n),
    cost_cents: roundHalfUp(micros[i]!),
  }));
  const costs = months.map((m) => m.cost_cents);
  const mean = roundHalfUp(
    micros.reduce((a, b) => a + b, 0n),
    BigInt(window.months.length),
  );
  const [min, max] = [Math.min(...costs), Math.max(...costs)];
  return {
    estimable: true,
    ...base,
    months,
    mean_monthly_cents: mean,
    min_monthly_cents: min,
    max_monthly_cents: max,
    reason: `${months.map((m) => `${m.month}: ${m.quantity} × ${rate.amount_cents} = ${m.cost_cents} cents`).join('; ')}; mean ${mean} cents, range ${min}–${max} cents a month.`,
  };
}

/** The steps of the method, in order, for the explanation. */
export const COST_STEPS = [
  { step: 'rate', description: 'The agent’s current chargeback rate: whole cents per unit.' },
  {
    step: 'unit',
    description:
      'The usage must be in the rate’s unit; no conversion between per_request, per_1k_tokens, per_hour and per_month is defined, so a different unit is not estimated.',
  },
  {
    step: 'expected',
    description: 'Expected cost a month = rate × expected quantity a month, rounded half up to whole cents.',
  },
  {
    step: 'recorded',
    description:
      'Recorded usage of the three full calendar months (UTC) before the current one, summed per month in the rate’s unit; each month × rate, rounded half up.',
  },
  {
    step: 'mean_and_range',
    description:
      'Mean = the three months’ unrounded total ÷ 3 (a month without usage counts as 0), rounded half up; range = the lowest and highest monthly cost.',
  },
] as const;
