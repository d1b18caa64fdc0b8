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
  /** Every comparable listed is inside the selection; `outlier`: beyond the IQR fences, not used. */
  dropped: null | 'outlier';
  dropped_reason: string | null;
}

/**
 * Why a candidate of the subject's type and marketing is outside the selection: the first criterion
 * it fails, checked in this order.
 */
export const EXCLUSION_REASONS = [
  'postal_code',
  'date',
  'no_area_or_price',
  'living_area',
  'year_built_unknown',
  'year_built',
] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

/** The candidates given that are outside the selection (at the postal-code level used): counted, not listed. */
export interface Excluded {
  count: number;
  by_reason: Record<ExclusionReason, number>;
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
  /** The comparables inside the selection (usable or outliers). */
  comparables: ValuedComparable[];
  excluded: Excluded;
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
  const relation =
    years === 0 ? 'the same year as' : `${Math.abs(years)} years ${years > 0 ? 'newer than' : 'older than'}`;
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
  adjusted: number;
  dropped: ValuedComparable['dropped'];
  reason: string | null;
}

/** One selection level: the candidates inside it, and how many are outside and why. */
interface Level {
  candidates: Candidate[];
  excluded: Excluded;
}

/** Which criterion a comparable of the same type and marketing fails first, or null when inside the selection. */
function outsideReason(
  c: ComparableInput,
  subject: ValuationSubject,
  area: number,
  prefix: string,
  from: string,
): ExclusionReason | null {
  if (!c.postal_code.startsWith(prefix)) return 'postal_code';
  if (c.date < from || c.date > subject.as_of) return 'date';
  if (!(c.living_area_sqm > 0) || !(c.price_eur > 0)) return 'no_area_or_price';
  if (normalise(Math.abs(c.living_area_sqm - area)) > normalise(MAX_AREA_DIFFERENCE * area)) return 'living_area';
  if (subject.year_built !== null) {
    if (c.year_built === null) return 'year_built_unknown';
    if (Math.abs(c.year_built - subject.year_built) > MAX_YEAR_DIFFERENCE) return 'year_built';
  }
  return null;
}

const noneExcluded = (): Excluded => ({
  count: 0,
  by_reason: Object.fromEntries(EXCLUSION_REASONS.map((r) => [r, 0])) as Record<ExclusionReason, number>,
});

/**
 * One selection level: filter (counting what is outside and why), adjust, then drop the outliers
 * beyond Q1 − 1.5 × IQR or Q3 + 1.5 × IQR of the adjusted prices per m² (one pass, fences included).
 * "Usable" — what decides the widening and the estimate — means inside the selection and not an outlier.
 */
function selectAt(
  comparables: readonly ComparableInput[],
  subject: ValuationSubject,
  area: number,
  prefix: string,
): Level {
  const from = lookbackStart(subject.as_of);
  const excluded = noneExcluded();
  const candidates: Candidate[] = [];
  for (const input of comparables) {
    const outside = outsideReason(input, subject, area, prefix, from);
    if (outside !== null) {
      excluded.count++;
      excluded.by_reason[outside]++;
      continue;
    }
    const raw = input.price_eur / input.living_area_sqm;
    const adjustments = [areaAdjustment(input.living_area_sqm, area)];
    if (subject.year_built !== null && input.year_built !== null)
      adjustments.push(ageAdjustment(input.year_built, subject.year_built));
    const adjusted = adjustments.reduce((value, a) => value * a.factor, raw);
    candidates.push({ input, raw, adjustments, adjusted, dropped: null, reason: null });
  }
  const values = candidates.map((c) => c.adjusted).sort((a, b) => a - b);
  if (values.length === 0) return { candidates, excluded };
  const q1 = quantile(values, 0.25);
  const q3 = quantile(values, 0.75);
  const low = normalise(q1 - OUTLIER_IQR_MULTIPLIER * (q3 - q1));
  const high = normalise(q3 + OUTLIER_IQR_MULTIPLIER * (q3 - q1));
  for (const c of candidates) {
    const value = normalise(c.adjusted);
    if (value < low || value > high) {
      c.dropped = 'outlier';
      c.reason = `adjusted ${roundHalfUp(value, 2)} €/m² outside ${roundHalfUp(low, 2)} – ${roundHalfUp(high, 2)} €/m² (Q1 − 1.5 × IQR, Q3 + 1.5 × IQR)`;
    }
  }
  return { candidates, excluded };
}

const usable = ({ candidates }: Level): number[] =>
  candidates.flatMap((c) => (c.dropped === null ? [c.adjusted] : [])).sort((a, b) => a - b);

const where = (prefix: string): string =>
  prefix.length >= 5 ? `postal code ${prefix}` : `postal codes starting with ${prefix}`;

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
  adjusted_price_per_sqm: roundHalfUp(c.adjusted, 2),
  dropped: c.dropped,
  dropped_reason: c.reason,
});

/** Newest transaction first, then by id, so the same input always lists in the same order. */
const byDateDescThenId = (a: Candidate, b: Candidate): number =>
  a.input.date !== b.input.date
    ? a.input.date < b.input.date
      ? 1
      : -1
    : a.input.id < b.input.id
      ? -1
      : a.input.id > b.input.id
        ? 1
        : 0;

/** The postal-code prefixes tried, narrowest first (duplicates removed for short codes). */
export const postalCodePrefixes = (postalCode: string): string[] => [
  ...new Set(POSTAL_CODE_PREFIX_LENGTHS.map((n) => postalCode.slice(0, n))),
];

/**
 * Values the subject from the comparables. Only comparables of the subject's type and marketing
 * are considered; those inside the selection at the postal-code level used are listed with their
 * raw price, their adjustments and, when dropped as an outlier, why; the others are counted in
 * `excluded` by the first criterion they fail. Pure: the as-of date is part of the subject.
 *
 * The levels narrower than or equal to a prefix are decided by the comparables under that prefix
 * alone, so a caller may pass only those (see `postalCodePrefixes`): when the selection then
 * stops at that prefix or a narrower one, the valuation is the one all candidates would give,
 * except that `excluded` counts only what was passed.
 */
export function valuate(subject: ValuationSubject, comparables: readonly ComparableInput[]): Valuation {
  if (!DATE.test(subject.as_of))
    throw new TypeError(`as_of must be a date (YYYY-MM-DD), got ${JSON.stringify(subject.as_of)}`);
  const base = {
    method_version: VALUATION_METHOD_VERSION,
    range_eur: null,
    price_per_sqm_eur: null,
    confidence: null,
    statistics: null,
  };
  const area = subject.living_area_sqm;
  if (area === null || !(area > 0)) {
    const reason = 'the property has no living area, so no price per m² can be applied';
    return {
      ...base,
      estimate_eur: null,
      reason,
      selection: { postal_code_prefix: subject.postal_code, widened: false, reason },
      comparables: [],
      excluded: noneExcluded(),
    };
  }
  const alike = comparables.filter((c) => c.type === subject.type && c.marketing === subject.marketing);
  const prefixes = postalCodePrefixes(subject.postal_code);

  const notes: string[] = [];
  let prefix = prefixes[0];
  let level = selectAt(alike, subject, area, prefix);
  for (const wider of prefixes.slice(1)) {
    const count = usable(level).length;
    if (count >= MIN_COMPARABLES) break;
    notes.push(`${count} usable in ${where(prefix)} (fewer than ${MIN_COMPARABLES})`);
    prefix = wider;
    level = selectAt(alike, subject, area, prefix);
  }
  const values = usable(level);
  const widened = prefix !== prefixes[0];
  const found = `${values.length} usable in ${where(prefix)}`;
  const selection: Selection = {
    postal_code_prefix: prefix,
    widened,
    reason: widened ? `${notes.join('; ')}: widened to ${where(prefix)}; ${found}` : found,
  };
  const listed = [...level.candidates].sort(byDateDescThenId).map(toOutput);
  const { excluded } = level;

  if (values.length < MIN_COMPARABLES) {
    const reason = `only ${values.length} usable comparables in ${where(prefix)}, at least ${MIN_COMPARABLES} are needed: no estimate`;
    return { ...base, estimate_eur: null, reason, selection, comparables: listed, excluded };
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
    statistics: {
      usable_count: values.length,
      q1_per_sqm: roundHalfUp(q1, 2),
      median_per_sqm: roundHalfUp(median, 2),
      q3_per_sqm: roundHalfUp(q3, 2),
      spread,
    },
    comparables: listed,
    excluded,
  };
}
