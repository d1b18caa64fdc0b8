import type { Property } from '../properties/index.js';

/**
 * The comparison approach (Vergleichswertverfahren, DESIGN §11): a pure function from a subject
 * and its candidate comparables to an estimate in which every figure can be recomputed by hand.
 * Bump the version whenever a constant or a step below changes, so that a stored or cached
 * valuation says which method made it.
 */
export const VALUATION_METHOD_VERSION = 'comparison/1';

// ---- Selection -------------------------------------------------------------------------------
/** Fewer usable comparables than this: widen the postal code; at the widest level: no estimate. */
export const MIN_COMPARABLES = 5;
/** Postal-code levels tried in order: the full code, then its first 3, then its first 2 digits. */
export const POSTAL_CODE_PREFIX_LENGTHS = [5, 3, 2] as const;
/** Living area of a comparable within ±30 % of the subject's (bounds included). */
export const MAX_AREA_DIFFERENCE = 0.3;
/** Year built within ±25 years of the subject's (bounds included). */
export const MAX_YEAR_DIFFERENCE = 25;
/** Transactions dated from the as-of date minus 36 months up to the as-of date (both included). */
export const LOOKBACK_MONTHS = 36;

// ---- Adjustments of the price per m² (to what it would be for the subject) --------------------
/**
 * Larger homes sell (and let) for less per m². A comparable whose living area is 10 % larger than
 * the subject's gets +2 % on its price per m², one 10 % smaller −2 % — linear in the relative
 * difference (factor = 1 + 0.2 × (area − subject area) / subject area), capped at ±5 %.
 */
export const AREA_ADJUSTMENT_PER_10_PERCENT = 0.02;
export const AREA_ADJUSTMENT_CAP = 0.05;
/**
 * Newer buildings fetch more per m². A comparable built 10 years later than the subject gets −5 %
 * on its price per m², one built 10 years earlier +5 % — linear in years (factor =
 * 1 − 0.005 × (year − subject year)), capped at ±10 %. No year for the subject: no age step.
 */
export const AGE_ADJUSTMENT_PER_10_YEARS = 0.05;
export const AGE_ADJUSTMENT_CAP = 0.1;
/** Factors are rounded half up to 4 decimals (0.01 %) and multiplied: adjusted = raw × area × age. */
export const FACTOR_DECIMALS = 4;

// ---- Statistics --------------------------------------------------------------------------------
/**
 * Quantiles by linear interpolation between order statistics (Hyndman & Fan type 7, the default of
 * R and of spreadsheets' QUARTILE.INC): sorted x[0..n−1], h = (n − 1) × p, q = x[⌊h⌋] + (h − ⌊h⌋) ×
 * (x[⌊h⌋+1] − x[⌊h⌋]). The median is q(0.5).
 */
export const OUTLIER_IQR_MULTIPLIER = 1.5;
/**
 * `high`: at least 10 usable and IQR / median ≤ 15 %; `medium`: at least 5 and ≤ 30 %; else `low`.
 * The spread is rounded half up to 4 decimals before it is compared (the figure shown is the one used).
 */
export const CONFIDENCE_THRESHOLDS = {
  high: { min_count: 10, max_spread: 0.15 },
  medium: { min_count: 5, max_spread: 0.3 },
} as const;

export type PropertyType = Property['type'];
export type Marketing = 'sale' | 'rent';
export type ComparableSource = 'own' | 'imported';
export type Confidence = 'high' | 'medium' | 'low';

export interface ValuationSubject {
  type: PropertyType;
  marketing: Marketing;
  postal_code: string;
  living_area_sqm: number | null;
  year_built: number | null;
  /** YYYY-MM-DD: the day the valuation is made for (the 36 months count back from it). */
  as_of: string;
}

export interface ComparableInput {
  id: string;
  type: PropertyType;
  marketing: Marketing;
  postal_code: string;
  living_area_sqm: number;
  year_built: number | null;
  /** Integer euros: the sale price, or the monthly cold rent. */
  price_eur: number;
  /** YYYY-MM-DD: the day of the sale or letting. */
  date: string;
  source: ComparableSource;
}

export interface Adjustment {
  kind: 'area' | 'age';
  factor: number;
  explanation: string;
}

export interface ValuedComparable {
  id: string;
  source: ComparableSource;
  postal_code: string;
  date: string;
  living_area_sqm: number;
  year_built: number | null;
  raw_price_eur: number;
  /** Per-m² figures are shown rounded half up to cents; the statistics use the unrounded values. */
  raw_price_per_sqm: number;
  adjustments: Adjustment[];
  adjusted_price_per_sqm: number | null;
  dropped: null | 'outlier' | 'outside_selection';
  dropped_reason: string | null;
}

export interface Selection {
  postal_code_prefix: string;
  widened: boolean;
  reason: string;
}

export interface Statistics {
  usable_count: number;
  q1_per_sqm: number;
  median_per_sqm: number;
  q3_per_sqm: number;
  /** (Q3 − Q1) / median, rounded half up to 4 decimals. */
  spread: number;
}

export interface Valuation {
  method_version: string;
  estimate_eur: number | null;
  range_eur: { low: number; high: number } | null;
  price_per_sqm_eur: number | null;
  confidence: Confidence | null;
  reason: string | null;
  selection: Selection;
  statistics: Statistics | null;
  comparables: ValuedComparable[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Binary floating point turns a hand-computed 150 000.5 into 150 000.49999999997. Every value is
 * first normalised to 12 significant digits (far beyond a euro or a cent at these magnitudes),
 * then rounded half up, once.
 */
const normalise = (x: number): number => Number(x.toPrecision(12));
export const roundHalfUp = (x: number, decimals = 0): number => {
  const scale = 10 ** decimals;
  return Math.round(normalise(x * scale)) / scale;
};

export function quantile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** The first day of the look-back window: 36 months before `asOf`, 29 February → 28 February. */
export function lookbackStart(asOf: string): string {
  const [year, month, day] = asOf.split('-').map(Number);
  const target = new Date(Date.UTC(year, month - 1 - LOOKBACK_MONTHS, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

const pct = (x: number): string => `${x >= 0 ? '+' : '−'}${roundHalfUp(Math.abs(x) * 100, 2).toFixed(2)} %`;
const clamp = (x: number, cap: number): number => Math.max(-cap, Math.min(cap, x));

function areaAdjustment(area: number, subjectArea: number): Adjustment {
  const difference = (area - subjectArea) / subjectArea;
  const raw = (difference / 0.1) * AREA_ADJUSTMENT_PER_10_PERCENT;
  const change = clamp(raw, AREA_ADJUSTMENT_CAP);
  const capped = normalise(Math.abs(raw)) > AREA_ADJUSTMENT_CAP ? ', capped' : '';
  const size = `${roundHalfUp(Math.abs(difference) * 100, 2).toFixed(2)} %`;
  const relation = difference === 0 ? 'the same as' : `${size} ${difference > 0 ? 'larger than' : 'smaller than'}`;
  return {
    kind: 'area',
    factor: roundHalfUp(1 + change, FACTOR_DECIMALS),
    explanation: `living area ${area} m² is ${relation} ${subjectArea} m²: ${pct(change)} per m²${capped}`,
  };
}

function ageAdjustment(year: number, subjectYear: number): Adjustment {
  const years = year - subjectYear;
  const raw = -(years / 10) * AGE_ADJUSTMENT_PER_10_YEARS;
  const change = clamp(raw, AGE_ADJUSTMENT_CAP);
  const capped = normalise(Math.abs(raw)) > AGE_ADJUSTMENT_CAP ? ', capped' : '';
  const relation = years === 0 ? 'the same year as' : `${Math.abs(years)} years ${years > 0 ? 'newer than' : 'older than'}`;
  return {
    kind: 'age',
    factor: roundHalfUp(1 + change, FACTOR_DECIMALS),
    explanation: `built ${year}, ${relation} ${subjectYear}: ${pct(change)} per m²${capped}`,
  };
}

interface Candidate {
  input: ComparableInput;
  raw: number;
  adjustments: Adjustment[];
  adjusted: number | null;
  dropped: ValuedComparable['dropped'];
  reason: string | null;
}

/** Why a comparable of the same type and marketing is outside the selection, or null when inside. */
function outsideReason(c: ComparableInput, subject: ValuationSubject, area: number, prefix: string, from: string): string | null {
  if (!c.postal_code.startsWith(prefix)) return `postal code ${c.postal_code} does not start with ${prefix}`;
  if (c.date < from || c.date > subject.as_of) return `dated ${c.date}, outside ${from} – ${subject.as_of} (${LOOKBACK_MONTHS} months)`;
  if (!(c.living_area_sqm > 0) || !(c.price_eur > 0)) return 'no living area or no price';
  if (normalise(Math.abs(c.living_area_sqm - area)) > normalise(MAX_AREA_DIFFERENCE * area)) {
    return `living area ${c.living_area_sqm} m² outside ${roundHalfUp(area * (1 - MAX_AREA_DIFFERENCE), 2)} – ${roundHalfUp(area * (1 + MAX_AREA_DIFFERENCE), 2)} m² (±${MAX_AREA_DIFFERENCE * 100} %)`;
  }
  if (subject.year_built !== null) {
    if (c.year_built === null) return 'year built unknown';
    if (Math.abs(c.year_built - subject.year_built) > MAX_YEAR_DIFFERENCE) {
      return `built ${c.year_built}, outside ${subject.year_built - MAX_YEAR_DIFFERENCE} – ${subject.year_built + MAX_YEAR_DIFFERENCE} (±${MAX_YEAR_DIFFERENCE} years)`;
    }
  }
  return null;
}

/**
 * One selection level: filter, adjust, then drop the outliers beyond Q1 − 1.5 × IQR or Q3 + 1.5 × IQR
 * of the adjusted prices per m² (one pass, fences included). "Usable" — what decides the widening
 * and the estimate — means inside the selection and not an outlier.
 */
function selectAt(comparables: readonly ComparableInput[], subject: ValuationSubject, area: number, prefix: string): Candidate[] {
  const from = lookbackStart(subject.as_of);
  const candidates: Candidate[] = comparables.map((input) => {
    const raw = input.living_area_sqm > 0 ? input.price_eur / input.living_area_sqm : 0;
    const reason = outsideReason(input, subject, area, prefix, from);
    if (reason !== null) return { input, raw, adjustments: [], adjusted: null, dropped: 'outside_selection', reason };
    const adjustments = [areaAdjustment(input.living_area_sqm, area)];
    if (subject.year_built !== null && input.year_built !== null) adjustments.push(ageAdjustment(input.year_built, subject.year_built));
    const adjusted = adjustments.reduce((value, a) => value * a.factor, raw);
    return { input, raw, adjustments, adjusted, dropped: null, reason: null };
  });
  const values = candidates.flatMap((c) => (c.adjusted === null ? [] : [c.adjusted])).sort((a, b) => a - b);
  if (values.length === 0) return candidates;
  const q1 = quantile(values, 0.25);
  const q3 = quantile(values, 0.75);
  const low = normalise(q1 - OUTLIER_IQR_MULTIPLIER * (q3 - q1));
  const high = normalise(q3 + OUTLIER_IQR_MULTIPLIER * (q3 - q1));
  for (const c of candidates) {
    if (c.adjusted === null) continue;
    const value = normalise(c.adjusted);
    if (value < low || value > high) {
      c.dropped = 'outlier';
      c.reason = `adjusted ${roundHalfUp(value, 2)} €/m² outside ${roundHalfUp(low, 2)} – ${roundHalfUp(high, 2)} €/m² (Q1 − 1.5 × IQR, Q3 + 1.5 × IQR)`;
    }
  }
  return candidates;
}

const usable = (candidates: readonly Candidate[]): number[] =>
  candidates.flatMap((c) => (c.dropped === null && c.adjusted !== null ? [c.adjusted] : [])).sort((a, b) => a - b);

const where = (prefix: string): string => (prefix.length >= 5 ? `postal code ${prefix}` : `postal codes starting with ${prefix}`);

function confidenceOf(count: number, spread: number): Confidence {
  const { high, medium } = CONFIDENCE_THRESHOLDS;
  if (count >= high.min_count && spread <= high.max_spread) return 'high';
  if (count >= medium.min_count && spread <= medium.max_spread) return 'medium';
  return 'low';
}

const toOutput = (c: Candidate): ValuedComparable => ({
  id: c.input.id,
  source: c.input.source,
  postal_code: c.input.postal_code,
  date: c.input.date,
  living_area_sqm: c.input.living_area_sqm,
  year_built: c.input.year_built,
  raw_price_eur: c.input.price_eur,
  raw_price_per_sqm: roundHalfUp(c.raw, 2),
  adjustments: c.adjustments,
  adjusted_price_per_sqm: c.adjusted === null ? null : roundHalfUp(c.adjusted, 2),
  dropped: c.dropped,
  dropped_reason: c.reason,
});

/** Newest transaction first, then by id, so the same input always lists in the same order. */
const byDateDescThenId = (a: Candidate, b: Candidate): number =>
  a.input.date !== b.input.date ? (a.input.date < b.input.date ? 1 : -1) : a.input.id < b.input.id ? -1 : a.input.id > b.input.id ? 1 : 0;

/**
 * Values the subject from the comparables. Only comparables of the subject's type and marketing
 * are considered (and listed); each of them is listed with its raw price, its adjustments and,
 * when it does not count, why. Pure: the as-of date is part of the subject.
 */
export function valuate(subject: ValuationSubject, comparables: readonly ComparableInput[]): Valuation {
  if (!DATE.test(subject.as_of)) throw new TypeError(`as_of must be a date (YYYY-MM-DD), got ${JSON.stringify(subject.as_of)}`);
  const base = { method_version: VALUATION_METHOD_VERSION, range_eur: null, price_per_sqm_eur: null, confidence: null, statistics: null };
  const area = subject.living_area_sqm;
  if (area === null || !(area > 0)) {
    const reason = 'the property has no living area, so no price per m² can be applied';
    return { ...base, estimate_eur: null, reason, selection: { postal_code_prefix: subject.postal_code, widened: false, reason }, comparables: [] };
  }
  const alike = comparables.filter((c) => c.type === subject.type && c.marketing === subject.marketing);
  const prefixes = [...new Set(POSTAL_CODE_PREFIX_LENGTHS.map((n) => subject.postal_code.slice(0, n)))];

  const notes: string[] = [];
  let prefix = prefixes[0];
  let candidates = selectAt(alike, subject, area, prefix);
  for (const wider of prefixes.slice(1)) {
    const count = usable(candidates).length;
    if (count >= MIN_COMPARABLES) break;
    notes.push(`${count} usable in ${where(prefix)} (fewer than ${MIN_COMPARABLES})`);
    prefix = wider;
    candidates = selectAt(alike, subject, area, prefix);
  }
  const values = usable(candidates);
  const widened = prefix !== prefixes[0];
  const found = `${values.length} usable in ${where(prefix)}`;
  const selection: Selection = {
    postal_code_prefix: prefix,
    widened,
    reason: widened ? `${notes.join('; ')}: widened to ${where(prefix)}; ${found}` : found,
  };
  const listed = [...candidates].sort(byDateDescThenId).map(toOutput);

  if (values.length < MIN_COMPARABLES) {
    const reason = `only ${values.length} usable comparables in ${where(prefix)}, at least ${MIN_COMPARABLES} are needed: no estimate`;
    return { ...base, estimate_eur: null, reason, selection, comparables: listed };
  }
  const q1 = quantile(values, 0.25);
  const median = quantile(values, 0.5);
  const q3 = quantile(values, 0.75);
  const spread = roundHalfUp((q3 - q1) / median, 4);
  return {
    ...base,
    estimate_eur: roundHalfUp(median * area),
    range_eur: { low: roundHalfUp(q1 * area), high: roundHalfUp(q3 * area) },
    price_per_sqm_eur: roundHalfUp(median, 2),
    confidence: confidenceOf(values.length, spread),
    reason: null,
    selection,
    statistics: { usable_count: values.length, q1_per_sqm: roundHalfUp(q1, 2), median_per_sqm: roundHalfUp(median, 2), q3_per_sqm: roundHalfUp(q3, 2), spread },
    comparables: listed,
  };
}
