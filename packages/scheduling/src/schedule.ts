import { ApiError } from '@platform/http';
import type { Db } from '@platform/db';
import { cancelSql, completeSql, confirmSql, overlappingId, rescheduleSql, scheduleTable, statusOf } from './schedule-sql.js';
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

const PAST: Record<ScheduleAction['action'], string> = { confirm: 'confirmed', complete: 'completed', cancel: 'cancelled', reschedule: 'rescheduled' };
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
export async function applyScheduleAction(tx: Db, kind: ScheduleKind, id: string, action: ScheduleAction, at: Date): Promise<void> {
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

/** The constraint a PostgreSQL exclusion violation (23P01) names, wherever the driver put it in the error. */
export function exclusionViolation(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): string | undefined => {
    if (value === null || typeof value !== 'object' || seen.has(value) || depth > 6) return undefined;
    seen.add(value);
    const record = value as Record<string, unknown>;
    const code = record.code ?? record.originalCode;
    if (code === '23P01') {
      const text = [record.constraint, record.message, record.originalMessage].filter((v) => typeof v === 'string').join(' ');
      const named = /"([a-z0-9_]+)"/.exec(typeof record.constraint === 'string' ? `"${record.constraint}"` : text);
      if (named) return named[1];
    }
    for (const key of ['cause', 'meta', 'driverAdapterError', 'error']) {
      const found = visit(record[key], depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return visit(error, 0);
}

/**
 * Runs a write that may book a time (create, reschedule, allocate) on the root client: a double
 * booking that the database refuses becomes a 409 `conflict` naming the field and the record
 * already booked then (looked up after the failed transaction, so the winner is visible).
 */
export async function withoutDoubleBooking<T>(
  db: Db,
  kind: ScheduleKind,
  booking: { range: TimeRange; participants: Record<string, string | null>; exceptId?: string },
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const constraint = exclusionViolation(error);
    const overlap = constraint ? kind.overlaps[constraint] : undefined;
    if (!overlap) throw error;
    const match = Object.fromEntries(overlap.columns.map((column) => [column, booking.participants[column] ?? '']));
    const conflicting = await overlappingId(db, scheduleTable(kind.table), match, booking.range.start, booking.range.end, booking.exceptId, kind.open);
    throw new ApiError('conflict', {
      message: `The time overlaps another ${kind.noun} of the same ${overlap.field.replace(/_id$/, '')}.`,
      details: [{ field: overlap.field, reason: 'overlaps', ...(conflicting ? { conflicting_id: conflicting } : {}) }],
    });
  }
}
