import type { ChargebackUnit } from '@platform/db';
import { DATA_CLASSIFICATIONS, type DataClassification } from '../agents/index.js';

export const COMPARABLES_METHOD_VERSION = 'comparables-2026-11';

/** Jaccard similarity |A ∩ B| / |A ∪ B| of two capability sets; 0 when both are empty. */
export function jaccard(
  a: readonly string[],
  b: readonly string[],
): { similarity: number; shared: string[]; union: number } {
  const left = new Set(a);
  const right = new Set(b);
  const shared = [...left].filter((c) => right.has(c)).sort();
  const union = new Set([...left, ...right]).size;
  return { similarity: union === 0 ? 0 : shared.length / union, shared, union };
}

/** Clearance order: public < internal < confidential < restricted. */
export const clearanceLevel = (c: DataClassification) => DATA_CLASSIFICATIONS.indexOf(c);

export interface ComparableAgent {
  id: string;
  name: string;
  capabilities: string[];
  data_classification: DataClassification;
  chargeback_amount_cents: number;
  chargeback_unit: ChargebackUnit;
}

export interface Comparable {
  agent_id: string;
  name: string;
  similarity: number;
  shared_capabilities: string[];
  data_classification: DataClassification;
  rate: { amount_cents: number; unit: ChargebackUnit };
  normalised: { unit: ChargebackUnit; amount_cents: number; difference_cents: number } | null;
  reason: string;
}

/**
 * The comparables of `agent` among `others`: overlapping capabilities (Jaccard > 0) and at least the
 * same clearance; rates normalised to the agent's unit where the unit is the same (no conversion
 * between units is defined); ranked by similarity (descending), then normalised rate (ascending,
 * other units last), then id.
 */
export function rankComparables(agent: ComparableAgent, others: readonly ComparableAgent[]): Comparable[] {
  const result: { exact: number; comparable: Comparable }[] = [];
  for (const other of others) {
    if (other.id === agent.id) continue;
    const { similarity, shared, union } = jaccard(agent.capabilities, other.capabilities);
    if (similarity === 0 || clearanceLevel(other.data_classification) < clearanceLevel(agent.data_classification))
      continue;
    const sameUnit = other.chargeback_unit === agent.chargeback_unit;
    const difference = other.chargeback_amount_cents - agent.chargeback_amount_cents;
    const rateText = sameUnit
      ? `charges ${other.chargeback_amount_cents} cents ${other.chargeback_unit}, ${difference === 0 ? 'the same as' : `${Math.abs(difference)} cents ${difference < 0 ? 'less' : 'more'} than`} this agent`
      : `charges ${other.chargeback_unit}, this agent ${agent.chargeback_unit}: not normalised, no conversion between these units is defined`;
    result.push({
      exact: similarity,
      comparable: {
        agent_id: other.id,
        name: other.name,
        similarity: Math.round(similarity * 10_000) / 10_000,
        shared_capabilities: shared,
        data_classification: other.data_classification,
        rate: { amount_cents: other.chargeback_amount_cents, unit: other.chargeback_unit },
        normalised: sameUnit
          ? { unit: agent.chargeback_unit, amount_cents: other.chargeback_amount_cents, difference_cents: difference }
          : null,
        reason:
          `Shares ${shared.length} of ${union} capabilities (${shared.join(', ')}); ` +
          `cleared for ${other.data_classification} (this agent: ${agent.data_classification}); ${rateText}.`,
      },
    });
  }
  // The exact fraction decides the order; the one shown is rounded to four decimals.
  const rate = (c: Comparable) => c.normalised?.amount_cents ?? Number.POSITIVE_INFINITY;
  result.sort(
    (a, b) =>
      b.exact - a.exact ||
      rate(a.comparable) - rate(b.comparable) ||
      (a.comparable.agent_id < b.comparable.agent_id ? -1 : 1),
  );
  return result.map((r) => r.comparable);
}
