import type { Prisma } from '@platform/db';
import { atMost, defineModel, score, type ScoreResult } from '@platform/scoring';
import { DATA_CLASSIFICATIONS } from '../agents/index.js';

type AgentRow = Prisma.AgentDeploymentGetPayload<object>;
type CapabilityProfileRow = Prisma.CapabilityProfileGetPayload<object>;

export interface AccessSubject {
  agent: AgentRow;
  profile: CapabilityProfileRow;
}

const COST_TOLERANCE = 0.5; // up to 50 % above budget still earns points; beyond that: knockout

const level = (c: string) => DATA_CLASSIFICATIONS.indexOf(c as (typeof DATA_CLASSIFICATIONS)[number]);
const cents = (n: number) => `${n.toLocaleString('en-US')} cents`;

/** The estimated monthly cost, or null when the usage is given in another unit than the agent charges. */
export function estimatedMonthlyCents({ agent, profile }: AccessSubject): number | null {
  return agent.chargeback_unit === profile.usage_unit ? agent.chargeback_amount_cents * profile.usage_quantity : null;
}

/** The weights and rules for access requests; the version is stored with every score. */
export const ACCESS_MODEL = defineModel<AccessSubject>({
  version: 'access-2026-11',
  knockouts: [
    {
      key: 'agent_status',
      check: ({ agent }) => (agent.status === 'active' ? null : `The agent is ${agent.status}.`),
    },
    {
      key: 'data_classification',
      check: ({ agent, profile }) =>
        level(agent.data_classification) < level(profile.data_classification)
          ? `The agent is cleared for ${agent.data_classification} data; the team will pass ${profile.data_classification} data.`
          : null,
    },
    {
      key: 'cost_far_above_budget',
      check: (subject) => {
        const cost = estimatedMonthlyCents(subject);
        const budget = subject.profile.budget_monthly_cents;
        return cost !== null && cost > budget * (1 + COST_TOLERANCE)
          ? `Estimated cost of ${cents(cost)} a month is more than ${COST_TOLERANCE * 100} % above the budget of ${cents(budget)}.`
          : null;
      },
    },
  ],
  criteria: [
    {
      key: 'capabilities',
      weight: 60,
      assess: ({ agent, profile }) => {
        const required = profile.required_capabilities;
        if (required.length === 0) return { fraction: 1, reason: 'No capabilities required.' };
        const missing = required.filter((c) => !agent.capabilities.includes(c));
        const covered = required.length - missing.length;
        return {
          fraction: covered / required.length,
          reason:
            `Offers ${covered} of ${required.length} required capabilities` +
            (missing.length > 0 ? `; missing: ${missing.join(', ')}.` : '.'),
        };
      },
    },
    {
      key: 'cost',
      weight: 40,
      assess: (subject) => {
        const { agent, profile } = subject;
        const cost = estimatedMonthlyCents(subject);
        if (cost === null) {
          return {
            fraction: 0,
            reason: `Cost cannot be estimated: the agent charges ${agent.chargeback_unit}, the expected usage is given ${profile.usage_unit}.`,
          };
        }
        const budget = profile.budget_monthly_cents;
        const basis = `${cents(agent.chargeback_amount_cents)} ${agent.chargeback_unit} × ${profile.usage_quantity.toLocaleString('en-US')}`;
        return {
          fraction: budget === 0 ? (cost === 0 ? 1 : 0) : atMost(cost, budget, COST_TOLERANCE),
          reason: `Estimated ${cents(cost)} a month (${basis}) against a budget of ${cents(budget)} (tolerance ${COST_TOLERANCE * 100} %).`,
        };
      },
    },
  ],
});

/** The explanation stored with the request and returned by `GET /access-requests/{id}/score`. */
export function explain(result: ScoreResult) {
  return {
    total: result.total,
    weights_version: result.weights_version,
    knocked_out: result.knocked_out,
    knockouts: result.knockouts.map((k) => ({ criterion: k.key, reason: k.reason })),
    criteria: result.criteria.map((c) => ({
      criterion: c.key,
      weight: c.weight,
      points: c.points,
      outcome: c.outcome,
      reason: c.reason,
    })),
  };
}

export type Explanation = ReturnType<typeof explain>;

export function scoreAccessRequest(subject: AccessSubject): Explanation {
  return explain(score(ACCESS_MODEL, subject));
}
