/**
 * Money of the commission settlements (DESIGN §11): every amount is an integer number of cents,
 * every rate an integer in a fixed unit, every product computed in BigInt, and every result
 * rounded at one place only — `divideRounded`:
 *
 *   ROUNDING: half away from zero ("kaufmännisch"): a remainder of exactly half a cent or more
 *   rounds to the next cent away from zero. For the non-negative amounts of a settlement this is
 *   half up: 2,500.025 € → 2,500.03 €, 2,500.0249 € → 2,500.02 €; a credit of −0.5 ct → −1 ct.
 *
 * Units:
 * - amounts: cents (`number`, always a safe integer; the BigInt intermediate never overflows);
 * - percentages: thousandths of a percent ("milli-percent", `PERCENT_SCALE`): 3.57 % = 3570,
 *   2.975 % = 2975 — enough for the usual gross-derived rates (2.5 % + 19 % VAT = 2.975 %);
 * - months of rent: hundredths of a month (`MONTHS_SCALE`): 2 months = 200, 1.5 months = 150;
 * - VAT rates: basis points (hundredths of a percent): 19 % = 1900.
 *
 * A rate from the API arrives as a JSON number (`3.57`). It is converted through its shortest
 * round-trip decimal text (`String(3.57)` is `"3.57"`), digit by digit, never by multiplying the
 * binary float (`3.57 * 1000` happens to be 3570, but `1.005 * 1000` is 1004.9999999999999). A
 * value with more decimals than the unit holds (3.5701 %) is not silently rounded: the conversion
 * answers `null` and the caller refuses it.
 */

/** Thousandths of a percent per percent: `percent_milli = percent × 1000`. */
export const PERCENT_DECIMALS = 3;
/** Hundredths of a month per month: `months_hundredths = months × 100`. */
export const MONTHS_DECIMALS = 2;

const PERCENT_DENOMINATOR = 100n * 10n ** BigInt(PERCENT_DECIMALS); // cents × milli / 100,000
const MONTHS_DENOMINATOR = 10n ** BigInt(MONTHS_DECIMALS);
const BASIS_POINTS_DENOMINATOR = 10_000n;

const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * `value × 10^decimals` as an exact integer, read from the number's decimal text; `null` when the
 * value is not finite, has more than `decimals` fraction digits, or leaves the safe integer range.
 */
export function toScaledInteger(value: number, decimals: number): number | null {
  if (!Number.isFinite(value) || !Number.isInteger(decimals) || decimals < 0) return null;
  const match = DECIMAL_TEXT.exec(String(value));
  if (!match) return null;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const shift = Number(exponent) + decimals - fraction.length;
  let digits = BigInt(whole + fraction);
  if (shift >= 0) {
    digits *= 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    if (digits % divisor !== 0n) return null;
    digits /= divisor;
  }
  const scaled = Number(sign === '-' ? -digits : digits);
  return Number.isSafeInteger(scaled) ? scaled : null;
}

/** A percentage from the API (3.57) in thousandths of a percent (3570); `null` beyond 3 decimals. */
export const percentToMilli = (percent: number): number | null => toScaledInteger(percent, PERCENT_DECIMALS);

/** Months of rent from the API (1.5) in hundredths of a month (150); `null` beyond 2 decimals. */
export const monthsToHundredths = (months: number): number | null => toScaledInteger(months, MONTHS_DECIMALS);

/** Whole euros (the property's prices) in cents. */
export function eurosToCents(euros: number): number {
  const cents = euros * 100;
  if (!Number.isSafeInteger(euros) || !Number.isSafeInteger(cents))
    throw new RangeError(`not a whole number of euros: ${euros}`);
  return cents;
}

/** THE rounding of the settlements: `numerator / denominator`, half away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('the denominator must be positive');
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator; // has the numerator's sign
  const magnitude = remainder < 0n ? -remainder : remainder;
  if (2n * magnitude < denominator) return quotient;
  return numerator < 0n ? quotient - 1n : quotient + 1n;
}

function scaledOf(amountCents: number, factor: number, denominator: bigint): number {
  if (!Number.isSafeInteger(amountCents)) throw new RangeError(`not a whole number of cents: ${amountCents}`);
  if (!Number.isSafeInteger(factor)) throw new RangeError(`not an integer rate: ${factor}`);
  const result = Number(divideRounded(BigInt(amountCents) * BigInt(factor), denominator));
  if (!Number.isSafeInteger(result)) throw new RangeError('amount out of range');
  return result;
}

/** `percentMilli` thousandths of a percent of an amount: 42,000,000 ct × 3570 → 1,499,400 ct. */
export const percentOf = (amountCents: number, percentMilli: number): number =>
  scaledOf(amountCents, percentMilli, PERCENT_DENOMINATOR);

/** `monthsHundredths` hundredths of a monthly amount: 125,000 ct × 200 → 250,000 ct. */
export const monthsOf = (monthlyCents: number, monthsHundredths: number): number =>
  scaledOf(monthlyCents, monthsHundredths, MONTHS_DENOMINATOR);

/** `basisPoints` hundredths of a percent of an amount (the VAT of a net amount). */
export const basisPointsOf = (amountCents: number, basisPoints: number): number =>
  scaledOf(amountCents, basisPoints, BASIS_POINTS_DENOMINATOR);

/** One period of the German standard VAT rate (§12 Abs. 1 UStG); `until` is inclusive, `null` open. */
export interface VatRate {
  from: string;
  until: string | null;
  rate_basis_points: number;
}

/**
 * The standard rate by date of the service (for a broker: the day the sale or letting was
 * concluded). Periods are contiguous and ordered; a change of law adds a row, never edits one.
 */
export const VAT_RATES: readonly VatRate[] = [
  { from: '2007-01-01', until: '2020-06-30', rate_basis_points: 1900 },
  // Zweites Corona-Steuerhilfegesetz: 16 % for services rendered 2020-07-01 … 2020-12-31.
  { from: '2020-07-01', until: '2020-12-31', rate_basis_points: 1600 },
  { from: '2021-01-01', until: null, rate_basis_points: 1900 },
];

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function assertCalendarDate(date: string): void {
  const match = DATE.exec(date);
  const [year, month, day] = match ? match.slice(1).map(Number) : [0, 0, 0];
  const parsed = new Date(Date.UTC(year, month - 1, day));
  const valid =
    match !== null &&
    parsed.getUTCFullYear() === year &&
    parsed.getUTCMonth() === month - 1 &&
    parsed.getUTCDate() === day;
  if (!valid) throw new TypeError(`not a calendar date (YYYY-MM-DD): ${JSON.stringify(date)}`);
}

/** The VAT rate in basis points on a day (YYYY-MM-DD); a RangeError before the table starts. */
export function vatRateOn(date: string, rates: readonly VatRate[] = VAT_RATES): number {
  assertCalendarDate(date);
  // YYYY-MM-DD strings compare in calendar order.
  const period = rates.find((rate) => rate.from <= date && (rate.until === null || date <= rate.until));
  if (!period) throw new RangeError(`no VAT rate known for ${date}`);
  return period.rate_basis_points;
}

export interface VatAmounts {
  net_cents: number;
  vat_rate_basis_points: number;
  vat_cents: number;
  gross_cents: number;
}

/** Net → VAT (rounded once, by `divideRounded`) → gross = net + VAT, at the rate of `date`. */
export function withVat(netCents: number, date: string): VatAmounts {
  const rate = vatRateOn(date);
  const vat = basisPointsOf(netCents, rate);
  return { net_cents: netCents, vat_rate_basis_points: rate, vat_cents: vat, gross_cents: netCents + vat };
}
