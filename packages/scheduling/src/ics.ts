import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block } from 'timezones-ical-library';

export interface CalendarEventInput {
  /** Stable across reschedules: the record's id with the service's domain. */
  uid: string;
  /** Raised by each reschedule and by the cancellation. */
  sequence: number;
  start: Date;
  end: Date;
  /** IANA zone the times are written in (the account's). */
  timeZone: string;
  summary: string;
  description?: string;
  location?: string;
  status: 'proposed' | 'confirmed' | 'completed' | 'cancelled';
  /** When the record last changed (DTSTAMP), so that the same state gives the same file. */
  stamp: Date;
  productId: { company: string; product: string };
}

/** `20261123T100000Z`: the UTC form RFC 5545 requires of DTSTAMP. */
const utc = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * One iCalendar event (RFC 5545) written by ical-generator, in the given time zone with its
 * VTIMEZONE; a cancelled one is a `METHOD:CANCEL` with `STATUS:CANCELLED`, others a `REQUEST`.
 */
export function calendarEvent(input: CalendarEventInput): string {
  const cancelled = input.status === 'cancelled';
  const calendar = ical({
    prodId: { company: input.productId.company, product: input.productId.product, language: 'EN' },
    method: cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    timezone: { name: input.timeZone, generator: (zone) => tzlib_get_ical_block(zone)[0] },
  });
  calendar.createEvent({
    id: input.uid,
    sequence: input.sequence,
    // Luxon times in the zone: written as local times with TZID (a Date would be written as UTC digits).
    start: DateTime.fromJSDate(input.start, { zone: input.timeZone }),
    end: DateTime.fromJSDate(input.end, { zone: input.timeZone }),
    timezone: input.timeZone,
    stamp: input.stamp,
    summary: input.summary,
    description: input.description,
    location: input.location,
    status: cancelled
      ? ICalEventStatus.CANCELLED
      : input.status === 'proposed'
        ? ICalEventStatus.TENTATIVE
        : ICalEventStatus.CONFIRMED,
  });
  // With a calendar time zone, ical-generator writes DTSTAMP as a local time too; the RFC wants UTC.
  return calendar.toString().replace(/^DTSTAMP:.*$/m, `DTSTAMP:${utc(input.stamp)}`);
}
