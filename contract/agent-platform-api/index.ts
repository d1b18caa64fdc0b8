// The success scenarios of the agent-platform API, in the order a platform team goes.
import type { ContractRun } from '../harness.js';
import { describeEvents } from '../shell/events.js';
import { describeRedelivery } from '../shell/redelivery.js';
import { describeWebhooksAndKeys } from '../shell/webhooks-and-keys.js';
import { describeKeyRoll } from '../shell/key-roll.js';
import { describeAgents, describeRetirement } from './agents.js';
import { describeRequestsAndCatalog } from './requests-and-catalog.js';
import { describeSessionsAndMoney } from './sessions-and-money.js';
import { newAgentState } from './state.js';

/** Event types the scenarios cause; the suite fails when one of them is not delivered. */
export const AGENT_PLATFORM_EVENTS: readonly string[] = [
  'agent.created',
  'agent.updated',
  'catalog_entry.completed',
  'catalog_entry.published',
  'request.received',
  'request.scored',
  'session.confirmed',
  'session.cancelled',
  'settlement.created',
];

export function describeAgentPlatformScenarios(run: ContractRun): void {
  const state = newAgentState();
  describeAgents(run, state);
  describeRequestsAndCatalog(run, state);
  describeSessionsAndMoney(run, state);
  describeRetirement(run, state);
  describeWebhooksAndKeys(run, {
    service: 'agents',
    readScope: 'agents:read',
    forbiddenWrite: {
      path: '/v1/agents',
      body: { name: 'Nope', owning_team: 'x', chargeback_rate: { amount_cents: 1, unit: 'per_request' } },
    },
    eventType: 'agent.archived',
  });
  describeRedelivery(run, { service: 'agents', eventType: 'agent.archived' });
  describeKeyRoll(run, 'agents', 'agents:read');
  describeEvents(run, 'agents');
}
