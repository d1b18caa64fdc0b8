import type { ApiContext } from '@platform/service';
import { activeAgentsSharingCapabilities, agentRepository } from '../agents/index.js';
import type { AgentPlatformEvents } from '../events.js';
import type { Comparables } from './schemas.js';
import { COMPARABLES_METHOD_VERSION, rankComparables } from './similarity.js';

export type ComparablesServiceDeps = Pick<ApiContext<AgentPlatformEvents>, 'db'>;
export type ComparablesService = ReturnType<typeof createComparablesService>;

export const SELECTION =
  'Other active agents of the account sharing at least one capability (Jaccard similarity > 0) and cleared for at least the agent’s data classification ' +
  '(public < internal < confidential < restricted); ranked by similarity, then by normalised rate (other units last), then id. ' +
  'Rates are normalised to the agent’s unit only where the unit is the same; no conversion between units is defined.';

/** Comparable deployments of an agent within its account. */
export function createComparablesService({ db }: ComparablesServiceDeps) {
  return {
    async of(accountId: string, agentId: string): Promise<Comparables> {
      const agent = await agentRepository.find(db, accountId, agentId);
      const capabilities = agent.capabilities ?? [];
      const others =
        capabilities.length === 0 ? [] : await activeAgentsSharingCapabilities(db, accountId, agent.id, capabilities);
      return {
        agent_id: agent.id,
        method_version: COMPARABLES_METHOD_VERSION,
        capabilities,
        data_classification: agent.data_classification,
        rate: { amount_cents: agent.chargeback_amount_cents, unit: agent.chargeback_unit },
        selection: SELECTION,
        data: rankComparables(agent, others),
      };
    },
  };
}
