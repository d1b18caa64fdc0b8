import { ApiError } from '@platform/http';
import { advisoryXactLock, inTransaction, postgresError, type Db } from '@platform/db';
import {
  cancelSql,
  completeSql,
  confirmSql,
  overlappingId,
  rescheduleSql,
  scheduleTable,
  statusOf,
} from './schedule-sql.js';
import type { TimeRange } from './time-range.js';

/** One use of the mechanism: its table, the sides that act, the cancellation reasons and the overlaps its constraints refuse. */
export interface ScheduleKind {
  table: string;
  /** What one record is called in messages: `appointment`, `session`. */
  noun: string;
  /** Who may confirm or cancel: `agent` / `prospect`, `provider` / `team`. */
  sides: readonly string[];
  reasons: readonly string[];
  /**
   * Per exclusion constraint of the table (prisma/schema/constraints.sql): the request field the
   * 409 names and the columns that identify the participant whose other booking clashes.
   */
  overlaps: Record<string, { field: string; columns: readonly string[] }>;
  /** The statuses the constraints hold for; default `proposed`, `confirmed` (slots: `open`). */
  open?: readonly string[];
}

export type ScheduleAction =
  | { action: 'confirm'; by: string }
  | { action: 'complete' }
  | { action: 'cancel'; by: string; reason: string }
  | { action: 'reschedule'; range: TimeRange };

const PAST: Record<ScheduleAction['action'], string> = {
  confirm: 'confirmed',
  complete: 'completed',
  cancel: 'cancelled',
  reschedule: 'rescheduled',
};
const FROM: Record<ScheduleAction['action'], string> = {
  confirm: 'proposed',
  complete: 'confirmed',
  cancel: 'proposed or confirmed',
  reschedule: 'proposed or confirmed',
};

/**
 * Applies an action of the state machine with one conditional UPDATE: `proposed → confirmed →
 * completed`, `proposed | confirmed → cancelled`, a reschedule back to `proposed`. Any other is
 * 409 `invalid_transition`. The caller has found (or locked) the row of its account first.
 */
export async function applyScheduleAction(
  tx: Db,
  kind: ScheduleKind,
  id: string,
  action: ScheduleAction,
  at: Date,
): Promise<void> {
  const table = scheduleTable(kind.table);
  let done: boolean;
  switch (action.action) {
    case 'confirm':
      done = await confirmSql(tx, table, id, action.by, at);
      break;
    case 'complete':
      done = await completeSql(tx, table, id, at);
      break;
    case 'cancel':
      done = await cancelSql(tx, table, id, action.by, action.reason, at);
      break;
    case 'reschedule':
      done = await rescheduleSql(tx, table, id, action.range.start, action.range.end, at);
      break;
  }
  if (!done) {
    const status = await statusOf(tx, table, id);
    throw new ApiError('invalid_transition', {
      message: `A ${kind.noun} can be ${PAST[action.action]} only when ${FROM[action.action]}; this one is ${status}.`,
    });
  }
}

/** The constraint a PostgreSQL exclusion violation (23P01) names. */
function exclusionViolation(error: unknown): string | undefined {
  const found = postgresError(error);
  if (found?.code !== '23P01') return undefined;
  return /"([a-z0-9_]+)"/.exec(found.text)?.[1];
}

/** A deadlock (40P01; Prisma's P2034), which a retry resolves. */
function isDeadlock(error: unknown): boolean {
  return postgresError(error)?.code === '40P01' || (error as { code?: unknown } | null)?.code === 'P2034';
}

/**
 * Serialises the bookings of one participant (a host, a prospect, an agent, a team) with
 * transaction-scoped advisory locks, taken in one fixed order: two overlapping inserts would
 * otherwise each wait on the other's uncommitted row under the exclusion constraint (a deadlock
 * PostgreSQL breaks only after a second). The constraints stay the guarantee; these make the
 * loser's 409 fast.
 */
async function lockParticipants(
  tx: Db,
  kind: ScheduleKind,
  participants: Record<string, string | null>,
): Promise<void> {
  for (const constraint of Object.keys(kind.overlaps).sort()) {
    const values = kind.overlaps[constraint].columns.map((column) => participants[column]);
    if (values.some((value) => value === null || value === undefined)) continue; // the constraint does not hold for NULL
    await advisoryXactLock(tx, `${kind.table}:${constraint}:${values.join('|')}`);
  }
}

const ATTEMPTS = 3;

/**
 * Runs a write that books a time (create, reschedule, allocate) in a transaction of its own,
 * after locking the participants: a double booking that the database refuses becomes a 409
 * `conflict` naming the field and the record already booked then (looked up after the failed
 * transaction, so the winner is visible); a deadlock is retried.
 */
export async function withoutDoubleBooking<T>(
  db: Db,
  kind: ScheduleKind,
  booking: { range: TimeRange; participants: Record<string, string | null>; exceptId?: string },
  write: (tx: Db) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(db, async (tx) => {
        await lockParticipants(tx, kind, booking.participants);
        return write(tx);
      });
    } catch (error) {
      if (isDeadlock(error) && attempt < ATTEMPTS) continue;
      const constraint = exclusionViolation(error);
      const overlap = constraint ? kind.overlaps[constraint] : undefined;
      if (!overlap) throw error;
      const match = Object.fromEntries(overlap.columns.map((column) => [column, booking.participants[column] ?? '']));
      const conflicting = await overlappingId(
        db,
        scheduleTable(kind.table),
        match,
        booking.range.start,
        booking.range.end,
        booking.exceptId,
        kind.open,
      );
      throw new ApiError('conflict', {
        message: `The time overlaps another ${kind.noun} of the same ${overlap.field.replace(/_id$/, '')}.`,
        details: [
          { field: overlap.field, reason: 'overlaps', ...(conflicting ? { conflicting_id: conflicting } : {}) },
        ],
      });
    }
  }
}
