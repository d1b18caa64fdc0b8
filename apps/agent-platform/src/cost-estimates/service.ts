import type { ChargebackUnit, Db, Prisma } from '@platform/db';
import { validationError } from '@platform/http';
import type { ApiContext } from '@platform/service';
import {
  activeAgentsWithCapabilities,
  agentRepository,
  DATA_CLASSIFICATIONS,
  type DataClassification,
} from '../agents/index.js';
import { capabilityProfileRepository } from '../capability-profiles/index.js';
import type { AgentPlatformEvents } from '../events.js';
import { monthlyUsage, type MonthlyUsage } from '../usage/index.js';
import {
  COST_METHOD_VERSION,
  COST_STEPS,
  ROUNDING,
  estimateExpected,
  estimateRecorded,
  trailingMonths,
} from './estimate.js';
import type { CostEstimate, ProfileCostEstimates } from './schemas.js';

type AgentRow = Prisma.AgentDeploymentGetPayload<object>;

export type CostEstimateServiceDeps = Pick<ApiContext<AgentPlatformEvents>, 'db' | 'now'>;
export type CostEstimateService = ReturnType<typeof createCostEstimateService>;

const level = (c: string) => DATA_CLASSIFICATIONS.indexOf(c as DataClassification);

/** `quantity` with at most six decimals as text, or a 422 on the query parameter. */
function quantityText(quantity: number): string {
  const text = quantity.toFixed(6);
  if (Number(text) !== quantity)
    throw validationError(
      [{ field: 'quantity', reason: 'invalid_format' }],
      'The quantity may have at most six decimals.',
    );
  return text;
}

function estimateOf(
  agent: AgentRow,
  window: ReturnType<typeof trailingMonths>,
  usage: MonthlyUsage[],
  expected?: { quantity: string; unit: ChargebackUnit },
): CostEstimate {
  const rate = { amount_cents: agent.chargeback_amount_cents, unit: agent.chargeback_unit };
  return {
    agent_id: agent.id,
    method_version: COST_METHOD_VERSION,
    rate,
    expected: expected ? estimateExpected(rate, expected.quantity, expected.unit) : null,
    recorded: estimateRecorded(
      rate,
      window,
      usage.filter((u) => u.agent_id === agent.id),
    ),
    steps: COST_STEPS.map((s) => ({ ...s })),
    rounding: ROUNDING,
  };
}

/** Monthly cost estimates from the chargeback rate, the expected and the recorded usage. */
export function createCostEstimateService({ db, now }: CostEstimateServiceDeps) {
  const usageOf = (tx: Db, accountId: string, agentIds: string[], window: ReturnType<typeof trailingMonths>) =>
    agentIds.length === 0 ? Promise.resolve([]) : monthlyUsage(tx, accountId, agentIds, window.from, window.to);

  return {
    async forAgent(
      accountId: string,
      agentId: string,
      query: { quantity?: number; unit?: ChargebackUnit },
    ): Promise<CostEstimate> {
      if ((query.quantity === undefined) !== (query.unit === undefined)) {
        const field = query.quantity === undefined ? 'quantity' : 'unit';
        throw validationError(
          [{ field, reason: 'missing' }],
          '`quantity` and `unit` are given together or not at all.',
        );
      }
      const expected =
        query.quantity !== undefined && query.unit
          ? { quantity: quantityText(query.quantity), unit: query.unit }
          : undefined;
      const agent = await agentRepository.find(db, accountId, agentId);
      const window = trailingMonths(now());
      return estimateOf(agent, window, await usageOf(db, accountId, [agent.id], window), expected);
    },

    /**
     * For a capability profile: every active agent of the account that offers all the profile's
     * required capabilities and is cleared for its data classification, estimated with the profile's
     * expected usage; cheapest expected cost first, those that cannot be estimated last.
     */
    async forProfile(accountId: string, profileId: string): Promise<ProfileCostEstimates> {
      const profile = await capabilityProfileRepository.find(db, accountId, profileId);
      const required = profile.required_capabilities ?? [];
      const candidates = (await activeAgentsWithCapabilities(db, accountId, required)).filter(
        (a) => level(a.data_classification) >= level(profile.data_classification),
      );
      const window = trailingMonths(now());
      const usage = await usageOf(
        db,
        accountId,
        candidates.map((a) => a.id),
        window,
      );
      const expected = { quantity: String(profile.usage_quantity), unit: profile.usage_unit };
      const agents = candidates.map((agent) => {
        const estimate = estimateOf(agent, window, usage, expected);
        const cost = estimate.expected?.monthly_cents ?? null;
        return {
          agent_id: agent.id,
          name: agent.name,
          fits_budget: cost === null ? null : cost <= profile.budget_monthly_cents,
          estimate,
        };
      });
      const key = (a: (typeof agents)[number]) => a.estimate.expected?.monthly_cents ?? Number.POSITIVE_INFINITY;
      agents.sort((a, b) => key(a) - key(b) || (a.agent_id < b.agent_id ? -1 : 1));
      return {
        profile_id: profile.id,
        method_version: COST_METHOD_VERSION,
        required_capabilities: required,
        data_classification: profile.data_classification,
        budget_monthly_cents: profile.budget_monthly_cents,
        expected_usage: { quantity: profile.usage_quantity, unit: profile.usage_unit },
        selection:
          'Active agents of the account offering every required capability and cleared for the profile’s data classification or higher; ' +
          'cheapest expected monthly cost first, agents whose cost cannot be estimated (another unit) last.',
        agents,
      };
    },
  };
}
