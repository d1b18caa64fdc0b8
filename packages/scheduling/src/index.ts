export { checkTimeRange, isTimeZone, TimeRangeFields, type TimeRange } from './time-range.js';
export { addDays, localDate, localDateTime, localMonth, startOfLocalDay } from './local-time.js';
export { applyScheduleAction, withoutDoubleBooking, type ScheduleAction, type ScheduleKind } from './schedule.js';
export { calendarEvent, type CalendarEventInput } from './ics.js';
export { scheduleView, scheduleViewFields, SCHEDULE_STATUSES, type ScheduleColumns } from './view.js';
export { assertHostFree, type HostTimeFinder } from './host-time.js';
