/** What one criterion says about a subject: how far it is met (0..1) and why. */
export interface Assessment {
  /** 1 = fully met, 0 = not at all; values between come from tolerances. */
  fraction: number;
  reason: string;
}

export interface Criterion<S> {
  key: string;
  /** Share of the total, in points; the weights of a model add up to 100. */
  weight: number;
  assess(subject: S): Assessment;
}

export interface Knockout<S> {
  key: string;
  /** A reason when the subject is out, else null. */
  check(subject: S): string | null;
}

export interface ScoringModel<S> {
  /** Version of the weights, stored with every score so that old scores stay explainable. */
  version: string;
  knockouts: readonly Knockout<S>[];
  criteria: readonly Criterion<S>[];
}

export interface CriterionResult {
  key: string;
  weight: number;
  points: number;
  /** `met` when fully met, `deviating` when partly or not met. */
  outcome: 'met' | 'deviating';
  reason: string;
}

export interface ScoreResult {
  total: number;
  weights_version: string;
  knocked_out: boolean;
  knockouts: { key: string; reason: string }[];
  criteria: CriterionResult[];
}

export function defineModel<S>(model: ScoringModel<S>): ScoringModel<S> {
  const sum = model.criteria.reduce((acc, c) => acc + c.weight, 0);
  if (sum !== 100) throw new Error(`Weights of model ${model.version} add up to ${sum}, not 100.`);
  if (model.criteria.some((c) => !Number.isInteger(c.weight) || c.weight < 0))
    throw new Error('Weights must be non-negative integers.');
  return model;
}

const clamp = (n: number) => Math.min(1, Math.max(0, Number.isFinite(n) ? n : 0));

/**
 * Knockouts first: any knockout makes the total 0 (criteria are still listed, with 0 points).
 * Otherwise each criterion earns weight × fraction points, rounded to whole points so that the
 * points add up exactly to the total (largest remainder).
 */
export function score<S>(model: ScoringModel<S>, subject: S): ScoreResult {
  const knockouts = model.knockouts.flatMap((k) => {
    const reason = k.check(subject);
    return reason ? [{ key: k.key, reason }] : [];
  });
  const assessed = model.criteria.map((c) => ({ criterion: c, ...c.assess(subject) }));
  const knockedOut = knockouts.length > 0;
  const raw = assessed.map((a) => (knockedOut ? 0 : a.criterion.weight * clamp(a.fraction)));
  const points = largestRemainder(raw);
  return {
    total: points.reduce((acc, p) => acc + p, 0),
    weights_version: model.version,
    knocked_out: knockedOut,
    knockouts,
    criteria: assessed.map((a, i) => ({
      key: a.criterion.key,
      weight: a.criterion.weight,
      points: points[i],
      outcome: clamp(a.fraction) >= 1 ? 'met' : 'deviating',
      reason: a.reason,
    })),
  };
}

/** Whole numbers that add up to the rounded sum of `values`, each within 1 of its value. */
export function largestRemainder(values: readonly number[]): number[] {
  const target = Math.round(values.reduce((acc, v) => acc + v, 0));
  const floors = values.map(Math.floor);
  let rest = target - floors.reduce((acc, v) => acc + v, 0);
  const order = values
    .map((v, i) => ({ i, remainder: v - Math.floor(v) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (rest <= 0) break;
    floors[i]++;
    rest--;
  }
  return floors;
}
