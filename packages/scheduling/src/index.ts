export { checkTimeRange, isTimeZone, MAX_DURATION_MS, TimeRangeFields, type TimeRange } from './time-range.js';
export { applyScheduleAction, exclusionViolation, withoutDoubleBooking, type ScheduleAction, type ScheduleKind } from './schedule.js';
export { OPEN_STATUSES } from './schedule-sql.js';
export { calendarEvent, type CalendarEventInput } from './ics.js';
export { scheduleView, scheduleViewFields, SCHEDULE_STATUSES, type ScheduleColumns } from './view.js';
