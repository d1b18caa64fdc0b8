import type { ScheduleKind } from '@platform/scheduling';
import { SESSION_CANCEL_REASONS, SESSION_SIDES } from '../events.js';

// The lists are the event catalogue's (its events carry them); re-exported for the resource.
export { SESSION_CANCEL_REASONS, SESSION_SIDES };
export type SessionSide = (typeof SESSION_SIDES)[number];
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
