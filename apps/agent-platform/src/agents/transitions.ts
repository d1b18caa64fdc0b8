import type { AgentStatus } from '@platform/db';
import type { TransitionTable } from '@platform/resource';

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
