import { describe, expect, it } from 'vitest';
import { calendarEvent, type CalendarEventInput } from '../src/index.js';

const base: CalendarEventInput = {
  uid: 'apt_1@property-service',
  sequence: 0,
  start: new Date('2026-12-01T09:00:00Z'),
  end: new Date('2026-07-01T10:00:00Z'),
  timeZone: 'Europe/Berlin',
  summary: 'Besichtigung: Helle Wohnung',
  status: 'proposed',
  stamp: new Date('2026-11-23T10:15:30.123Z'),
  productId: { company: 'example', product: 'test' },
};
const lines = (ics: string) => ics.split('\r\n');

describe('calendarEvent', () => {
  it("writes the times in the account's time zone with its VTIMEZONE, the UID, the SEQUENCE and a UTC DTSTAMP", () => {
    const ics = calendarEvent({ ...base, end: new Date('2026-12-01T10:00:00Z') });
    const l = lines(ics);
    expect(l[0]).toBe('BEGIN:VCALENDAR');
    expect(l).toContain('METHOD:REQUEST');
    expect(l).toContain('BEGIN:VTIMEZONE');
    expect(l).toContain('TZID:Europe/Berlin');
    expect(l).toContain('UID:apt_1@property-service');
    expect(l).toContain('SEQUENCE:0');
    expect(l).toContain('DTSTART;TZID=Europe/Berlin:20261201T100000'); // 09:00 UTC is 10:00 in Berlin in winter
    expect(l).toContain('DTEND;TZID=Europe/Berlin:20261201T110000');
    expect(l).toContain('DTSTAMP:20261123T101530Z');
    expect(l).toContain('STATUS:TENTATIVE');
  });

  it('follows summer time, and another zone', () => {
    const summer = lines(
      calendarEvent({ ...base, start: new Date('2027-07-01T09:00:00Z'), end: new Date('2027-07-01T10:00:00Z') }),
    );
    expect(summer).toContain('DTSTART;TZID=Europe/Berlin:20270701T110000');
    const ny = lines(calendarEvent({ ...base, timeZone: 'America/New_York', end: new Date('2026-12-01T10:00:00Z') }));
    expect(ny).toContain('DTSTART;TZID=America/New_York:20261201T040000');
    expect(ny).toContain('TZID:America/New_York');
  });

  it('keeps the UID and raises nothing itself: a cancelled event is METHOD:CANCEL with STATUS:CANCELLED and its sequence', () => {
    const cancelled = lines(
      calendarEvent({ ...base, end: new Date('2026-12-01T10:00:00Z'), status: 'cancelled', sequence: 3 }),
    );
    expect(cancelled).toContain('METHOD:CANCEL');
    expect(cancelled).toContain('STATUS:CANCELLED');
    expect(cancelled).toContain('SEQUENCE:3');
    expect(cancelled).toContain('UID:apt_1@property-service');
    const confirmed = lines(calendarEvent({ ...base, end: new Date('2026-12-01T10:00:00Z'), status: 'confirmed' }));
    expect(confirmed).toContain('STATUS:CONFIRMED');
  });
});
