import { scheduleView } from '@platform/scheduling';
import type { SessionCancelReason, SessionSide } from './kind.js';
import type { EvaluationSessionRow } from './repository.js';
import type { EvaluationSession } from './schemas.js';

/** The API representation, with the times' zone (the account's). */
export function toEvaluationSession(row: EvaluationSessionRow, timeZone: string): EvaluationSession {
  return {
    id: row.id,
    agent_id: row.agent_id,
    team: row.team,
    access_request_id: row.access_request_id,
    evaluator_roles: row.evaluator_roles,
    evaluator_count: row.evaluator_count,
    ...scheduleView<SessionSide, SessionCancelReason>(row, timeZone),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** What both session events carry: ids and times, never names. */
const eventBase = (row: EvaluationSessionRow) => ({
  session_id: row.id,
  agent_id: row.agent_id,
  access_request_id: row.access_request_id,
  starts_at: row.starts_at.toISOString(),
  ends_at: row.ends_at.toISOString(),
});

/** The `session.confirmed` data: ids, times and the confirming side. */
export function confirmedEvent(row: EvaluationSessionRow) {
  return {
    ...eventBase(row),
    confirmed_by: row.confirmed_by as SessionSide,
    confirmed_at: row.confirmed_at!.toISOString(),
  };
}

/** The `session.cancelled` data: ids, times, the cancelling side and the reason code. */
export function cancelledEvent(row: EvaluationSessionRow) {
  return {
    ...eventBase(row),
    cancelled_by: row.cancelled_by as SessionSide,
    reason: row.cancel_reason as SessionCancelReason,
    cancelled_at: row.cancelled_at!.toISOString(),
  };
}
