// Wall-clock times in an IANA time zone with Intl alone: the local date of an instant, the instant a
// local day begins, and RFC 3339 with the zone's offset (`2026-07-02T10:00:00+02:00`).

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(at: Date, timeZone: string) {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The zone's offset from UTC at that instant, in minutes (Berlin in summer: 120). */
function offsetMinutes(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** `YYYY-MM-DD` of the instant in the zone. */
export function localDate(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** The instant the local day `YYYY-MM-DD` (plus `days`) begins in the zone. */
export function startOfLocalDay(date: string, timeZone: string, days = 0): Date {
  const [year, month, day] = date.split('-').map(Number);
  const midnight = Date.UTC(year, month - 1, day + days);
  // Two rounds: the offset at the guess, then at the corrected instant (a DST change that night).
  let instant = midnight - offsetMinutes(new Date(midnight), timeZone) * 60_000;
  instant = midnight - offsetMinutes(new Date(instant), timeZone) * 60_000;
  return new Date(instant);
}

/** RFC 3339 in the zone's wall-clock time with its offset, to the second. */
export function localDateTime(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  const offset = offsetMinutes(at, timeZone);
  const sign = offset < 0 ? '-' : '+';
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

/** `YYYY-MM-DD` plus `days` calendar days (no zone involved). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The instants a calendar month `YYYY-MM` begins and ends (exclusive) in the zone. */
export function localMonth(period: string, timeZone: string): { start: Date; end: Date } {
  const [year, month] = period.split('-').map(Number);
  const next = new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
  return { start: startOfLocalDay(`${period}-01`, timeZone), end: startOfLocalDay(next, timeZone) };
}
