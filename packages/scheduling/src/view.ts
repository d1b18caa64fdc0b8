import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '@platform/http';

export const SCHEDULE_STATUSES = ['proposed', 'confirmed', 'completed', 'cancelled'] as const;

/** The columns every scheduled table has, as Prisma reads them. */
export interface ScheduleColumns {
  status: (typeof SCHEDULE_STATUSES)[number];
  starts_at: Date;
  ends_at: Date;
  sequence: number;
  history: unknown;
  confirmed_by: string | null;
  confirmed_at: Date | null;
  cancelled_by: string | null;
  cancel_reason: string | null;
  cancelled_at: Date | null;
  completed_at: Date | null;
}

const DateTimeString = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

/** The schedule's fields of an appointment's or session's view, with the service's sides and reasons. */
export function scheduleViewFields(sides: readonly string[], reasons: readonly string[]) {
  return {
    status: StringEnum(SCHEDULE_STATUSES, {
      description:
        '`proposed` → `confirmed` → `completed`; `proposed` or `confirmed` → `cancelled`; a reschedule goes back to `proposed`.',
    }),
    starts_at: DateTimeString(),
    ends_at: DateTimeString(),
    time_zone: Type.String({ description: "The account's time zone, in which the `.ics` is written." }),
    sequence: Type.Integer({ description: 'iCalendar SEQUENCE: raised by each reschedule and the cancellation.' }),
    history: Type.Array(
      Type.Object({
        starts_at: DateTimeString(),
        ends_at: DateTimeString(),
        until: DateTimeString('When it was rescheduled away from this time.'),
      }),
      { description: 'Earlier times, oldest first.' },
    ),
    confirmed_by: Nullable(StringEnum(sides)),
    confirmed_at: Nullable(DateTimeString()),
    cancelled_by: Nullable(StringEnum(sides)),
    cancel_reason: Nullable(StringEnum(reasons)),
    cancelled_at: Nullable(DateTimeString()),
    completed_at: Nullable(DateTimeString()),
  };
}

const iso = (value: Date | null) => value?.toISOString() ?? null;
/** Timestamps in the history as PostgreSQL's JSON wrote them, in RFC 3339 with milliseconds like every other time. */
const rfc3339 = (value: string) => new Date(value).toISOString();

export function scheduleView<Side extends string, Reason extends string>(row: ScheduleColumns, timeZone: string) {
  const history = (row.history as { starts_at: string; ends_at: string; until: string }[]).map((h) => ({
    starts_at: rfc3339(h.starts_at),
    ends_at: rfc3339(h.ends_at),
    until: rfc3339(h.until),
  }));
  return {
    status: row.status,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    time_zone: timeZone,
    sequence: row.sequence,
    history,
    confirmed_by: row.confirmed_by as Side | null,
    confirmed_at: iso(row.confirmed_at),
    cancelled_by: row.cancelled_by as Side | null,
    cancel_reason: row.cancel_reason as Reason | null,
    cancelled_at: iso(row.cancelled_at),
    completed_at: iso(row.completed_at),
  };
}
