import { describe, expect, it } from 'vitest';
import { addDays, localDate, localMonth, startOfLocalDay } from '../src/index.js';

describe('local time', () => {
  it('localDate: the calendar day of an instant in the zone', () => {
    expect(localDate(new Date('2026-11-30T23:30:00Z'), 'Europe/Berlin')).toBe('2026-12-01');
    expect(localDate(new Date('2026-12-01T03:00:00Z'), 'America/New_York')).toBe('2026-11-30');
  });

  it('startOfLocalDay: midnight in the zone, across a DST change', () => {
    expect(startOfLocalDay('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfLocalDay('2026-03-29', 'Europe/Berlin', 1).toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('localMonth: a month as [start, end) in the zone, December into January included', () => {
    expect(localMonth('2026-11', 'Europe/Berlin')).toEqual({
      start: new Date('2026-10-31T23:00:00Z'),
      end: new Date('2026-11-30T23:00:00Z'),
    });
    expect(localMonth('2026-12', 'America/New_York')).toEqual({
      start: new Date('2026-12-01T05:00:00Z'),
      end: new Date('2027-01-01T05:00:00Z'),
    });
    expect(localMonth('2026-03', 'Europe/Berlin').end).toEqual(new Date('2026-03-31T22:00:00Z')); // summer time from the 29th
  });

  it('addDays: calendar arithmetic over month and year ends', () => {
    expect(addDays('2026-06-30', 14)).toBe('2026-07-14');
    expect(addDays('2026-12-25', 10)).toBe('2027-01-04');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });
});
