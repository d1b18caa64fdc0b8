import { Type } from '@sinclair/typebox';
import { ApiError, type ErrorDetail } from '@platform/http';

/** No appointment or session is longer than this. */
export const MAX_DURATION_MS = 8 * 60 * 60 * 1000;

/** `starts_at` and `ends_at` of a request: RFC 3339 date-times. */
export const TimeRangeFields = {
  starts_at: Type.String({
    format: 'date-time',
    description: 'RFC 3339, e.g. `2026-12-01T10:00:00+01:00`; not in the past.',
  }),
  ends_at: Type.String({ format: 'date-time', description: 'After `starts_at`, at most 8 hours later.' }),
};

export interface TimeRange {
  start: Date;
  end: Date;
}

/** The range, or one 422 with every problem: in the past, ending before it starts, longer than 8 hours. */
export function checkTimeRange(input: { starts_at: string; ends_at: string }, now: Date): TimeRange {
  const start = new Date(input.starts_at);
  const end = new Date(input.ends_at);
  const details: ErrorDetail[] = [];
  if (start.getTime() < now.getTime()) details.push({ field: 'starts_at', reason: 'out_of_range' });
  if (end.getTime() <= start.getTime()) details.push({ field: 'ends_at', reason: 'out_of_range' });
  else if (end.getTime() - start.getTime() > MAX_DURATION_MS)
    details.push({ field: 'ends_at', reason: 'out_of_range' });
  if (details.length > 0) {
    throw new ApiError('validation_failed', {
      message: 'The time must not lie in the past, must end after it starts and may last at most 8 hours.',
      details,
    });
  }
  return { start, end };
}

/** Whether the name is an IANA time zone this runtime knows (`Europe/Berlin`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name);
  } catch {
    return false;
  }
}
