import type { ScheduleKind } from '@platform/scheduling';

/** Who confirms or cancels a session: the agent's provider or the evaluating team. */
export const SESSION_SIDES = ['provider', 'team'] as const;
export type SessionSide = (typeof SESSION_SIDES)[number];

/**
 * Why a session was cancelled: the team declined, the provider cannot, the agent was retired
 * (set by the platform when the agent is retired, never needed by hand) or anything else.
 */
export const SESSION_CANCEL_REASONS = ['team_declined', 'provider_unavailable', 'agent_retired', 'other'] as const;
export type SessionCancelReason = (typeof SESSION_CANCEL_REASONS)[number];

/** Evaluation sessions as a use of the shared scheduling mechanism (`@platform/scheduling`). */
export const SESSION_KIND = {
  table: 'evaluation_sessions',
  noun: 'session',
  sides: SESSION_SIDES,
  reasons: SESSION_CANCEL_REASONS,
  // The exclusion constraints of prisma/schema/constraints.sql.
  overlaps: {
    evaluation_sessions_agent_overlap: { field: 'agent_id', columns: ['agent_id'] },
    evaluation_sessions_team_overlap: { field: 'team', columns: ['account_id', 'team'] },
  },
} as const satisfies ScheduleKind;
