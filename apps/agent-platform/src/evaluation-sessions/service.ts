import { inTransaction, newId, type Db } from '@platform/db';
import { ApiError, notFound, validationError } from '@platform/http';
import { accountTimeZone } from '@platform/accounts';
import {
  applyScheduleAction,
  calendarEvent,
  checkTimeRange,
  withoutDoubleBooking,
  type ScheduleAction,
} from '@platform/scheduling';
import type { ApiContext } from '@platform/service';
import { findAccessRequest } from '../access-requests/index.js';
import { agentName, agentRepository } from '../agents/index.js';
import type { AgentPlatformEvents } from '../events.js';
import { SESSION_KIND, type SessionCancelReason, type SessionSide } from './kind.js';
import { cancelledEvent, confirmedEvent, toEvaluationSession } from './mapping.js';
import { insertSession, loadSession as load, sessionRepository, type EvaluationSessionRow } from './repository.js';
import type { EvaluationSession, EvaluationSessionInput, SessionListQuery } from './schemas.js';
import { lockOpenSessionsOfAgent } from './sessions-sql.js';

export type EvaluationSessionServiceDeps = Pick<ApiContext<AgentPlatformEvents>, 'db' | 'cursors' | 'now' | 'emit'>;
export type EvaluationSessionService = ReturnType<typeof createEvaluationSessionService>;

/** The evaluators of a new session: roles or a count (a count defaults to the number of roles, never below it). */
function evaluatorsOf(input: Pick<EvaluationSessionInput, 'evaluator_roles' | 'evaluator_count'>) {
  const roles = input.evaluator_roles ?? [];
  const count = input.evaluator_count ?? roles.length;
  if (count === 0)
    throw validationError(
      [{ field: 'evaluator_count', reason: 'missing' }],
      'Give the roles of the evaluators or their number.',
    );
  if (count < roles.length) {
    throw validationError(
      [{ field: 'evaluator_count', reason: 'out_of_range' }],
      `evaluator_count must be at least the number of evaluator_roles (${roles.length}).`,
    );
  }
  return { evaluator_roles: roles, evaluator_count: count };
}

/** The `from`/`to` filter on `starts_at` (from inclusive, to exclusive). */
function startsBetween(from: string | undefined, to: string | undefined) {
  if (from === undefined && to === undefined) return undefined;
  if (from !== undefined && to !== undefined && new Date(to).getTime() <= new Date(from).getTime()) {
    throw validationError([{ field: 'to', reason: 'out_of_range' }], '`to` must be after `from`.');
  }
  return { ...(from !== undefined ? { gte: new Date(from) } : {}), ...(to !== undefined ? { lt: new Date(to) } : {}) };
}

/** Evaluation sessions of an agent with a team, on the shared scheduling mechanism; every query is scoped by `account_id`. */
export function createEvaluationSessionService({ db, cursors, now, emit }: EvaluationSessionServiceDeps) {
  /** Applies one action under the session's row lock and emits its event in the same transaction. */
  async function act(
    tx: Db,
    accountId: string,
    id: string,
    action: ScheduleAction,
    at: Date,
  ): Promise<EvaluationSessionRow> {
    await applyScheduleAction(tx, SESSION_KIND, id, action, at);
    const row = await load(tx, id);
    if (action.action === 'confirm')
      await emit(tx, { accountId, type: 'session.confirmed', data: confirmedEvent(row), at });
    if (action.action === 'cancel')
      await emit(tx, { accountId, type: 'session.cancelled', data: cancelledEvent(row), at });
    return row;
  }

  /** In the caller's transaction (a reschedule's, with its participants locked) or a new one. */
  function transition(accountId: string, id: string, action: ScheduleAction, on: Db = db): Promise<EvaluationSession> {
    const at = now();
    return inTransaction(on, async (tx) => {
      await sessionRepository.hold(tx, accountId, id);
      return toEvaluationSession(await act(tx, accountId, id, action, at), await accountTimeZone(tx, accountId));
    });
  }

  return {
    /** A `proposed` session of an active agent with a team; an overlap with an open session of the agent or the team is 409. */
    async create(accountId: string, input: EvaluationSessionInput): Promise<EvaluationSession> {
      const at = now();
      const range = checkTimeRange(input, at);
      const evaluators = evaluatorsOf(input);
      const participants = { agent_id: input.agent_id, account_id: accountId, team: input.team };
      return withoutDoubleBooking(db, SESSION_KIND, { range, participants }, (booking) =>
        inTransaction(booking, async (tx) => {
          // FOR SHARE: a concurrent retirement waits until the session is stored (and then cancels it).
          const agent = await agentRepository.lock(tx, accountId, input.agent_id, 'share', () =>
            notFound('No agent with the agent_id.'),
          );
          if (agent.status !== 'active')
            throw new ApiError('conflict', { message: `The agent is ${agent.status}; it cannot be evaluated.` });
          if (input.access_request_id !== undefined) {
            const request = await findAccessRequest(tx, accountId, input.access_request_id);
            if (!request) throw notFound('No access request with the access_request_id.');
            if (request.agent_id !== input.agent_id || request.team !== input.team) {
              throw validationError(
                [{ field: 'access_request_id', reason: 'not_allowed' }],
                'The access request is for another agent or team.',
              );
            }
          }
          const row = await insertSession(tx, {
            id: newId('ses', at.getTime()),
            account_id: accountId,
            agent_id: input.agent_id,
            team: input.team,
            access_request_id: input.access_request_id ?? null,
            ...evaluators,
            starts_at: range.start,
            ends_at: range.end,
            created_at: at,
            updated_at: at,
          });
          return toEvaluationSession(row, await accountTimeZone(tx, accountId));
        }),
      );
    },

    async get(accountId: string, id: string): Promise<EvaluationSession> {
      const row = await sessionRepository.find(db, accountId, id);
      return toEvaluationSession(row, await accountTimeZone(db, accountId));
    },

    /** Newest first; the filters are part of the cursor's scope. */
    async list(accountId: string, { agent_id, status, from, to, limit, cursor }: SessionListQuery) {
      const timeZone = await accountTimeZone(db, accountId);
      const filters = { agent_id, status, starts_at: startsBetween(from, to) };
      return sessionRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters,
        map: (row) => toEvaluationSession(row, timeZone),
      });
    },

    confirm: (accountId: string, id: string, by: SessionSide) => transition(accountId, id, { action: 'confirm', by }),
    complete: (accountId: string, id: string) => transition(accountId, id, { action: 'complete' }),
    cancel: (accountId: string, id: string, by: SessionSide, reason: SessionCancelReason) =>
      transition(accountId, id, { action: 'cancel', by, reason }),

    /** A new time (the old one into the history, back to `proposed`); an overlap with another open session is 409. */
    async reschedule(
      accountId: string,
      id: string,
      input: { starts_at: string; ends_at: string },
    ): Promise<EvaluationSession> {
      const { agent_id, team } = await sessionRepository.find(db, accountId, id);
      const range = checkTimeRange(input, now());
      return withoutDoubleBooking(
        db,
        SESSION_KIND,
        { range, participants: { agent_id, account_id: accountId, team }, exceptId: id },
        (tx) => transition(accountId, id, { action: 'reschedule', range }, tx),
      );
    },

    /** The session as an iCalendar event in the account's time zone (a CANCEL once cancelled). */
    async ics(accountId: string, id: string): Promise<string> {
      const row = await sessionRepository.find(db, accountId, id);
      const name = await agentName(db, row.agent_id);
      const roles = row.evaluator_roles.length > 0 ? ` (${row.evaluator_roles.join(', ')})` : '';
      return calendarEvent({
        uid: `${row.id}@agent-platform`,
        sequence: row.sequence,
        start: row.starts_at,
        end: row.ends_at,
        timeZone: await accountTimeZone(db, accountId),
        summary: `Evaluation session: ${name} with ${row.team}`,
        description: `Evaluators: ${row.evaluator_count}${roles}.`,
        status: row.status,
        stamp: row.updated_at,
        productId: { company: 'Agent Platform', product: 'Evaluation sessions' },
      });
    },

    /**
     * Cancels the agent's open sessions (`by: provider`, `agent_retired`), each with its
     * `session.cancelled`: inside the retiring transaction, which holds the agent's row.
     */
    async cancelOfRetiredAgent(tx: Db, accountId: string, agentId: string, at: Date): Promise<void> {
      for (const id of await lockOpenSessionsOfAgent(tx, accountId, agentId)) {
        await act(tx, accountId, id, { action: 'cancel', by: 'provider', reason: 'agent_retired' }, at);
      }
    },
  };
}
