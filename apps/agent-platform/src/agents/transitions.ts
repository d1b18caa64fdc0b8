import type { AgentStatus } from '@platform/db';
import { defineTransitions, type TransitionTable } from '@platform/resource';
import { agentRepository, agentTable, type AgentRow } from './repository.js';

/**
 * Status changes happen only through these actions (`POST /agents/{id}/<action>`).
 *
 * | action | from   | to      |
 * |--------|--------|---------|
 * | retire | active | retired |
 *
 * `retired` is final: a retired agent cannot be changed or retired again.
 */
export const AGENT_TRANSITIONS = {
  retire: { from: ['active'], to: 'retired', summary: 'Take the agent out of service; sets `retired_at`.' },
} as const satisfies TransitionTable<AgentStatus>;

export type AgentAction = keyof typeof AGENT_TRANSITIONS;

/** Applies an action of the table in the caller's transaction; retiring also sets `retired_at`. */
export const transitionAgent = defineTransitions<AgentRow, AgentStatus>({
  model: agentTable,
  table: AGENT_TRANSITIONS,
  noun: 'an agent',
  notFound: agentRepository.notFound,
  also: (to, at) => (to === 'retired' ? { retired_at: at } : {}),
});
