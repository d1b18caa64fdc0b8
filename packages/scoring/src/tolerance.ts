/**
 * How far a value at most `limit` is met: 1 up to the limit, then falling linearly to 0 at
 * `limit × (1 + tolerance)`. Used for prices against a budget.
 */
export function atMost(value: number, limit: number, tolerance: number): number {
  if (value <= limit) return 1;
  const over = (value - limit) / (limit * tolerance);
  return Math.max(0, 1 - over);
}

/** The mirror: 1 from `minimum` up, falling linearly to 0 at `minimum × (1 - tolerance)`. Rooms, area. */
export function atLeast(value: number, minimum: number, tolerance: number): number {
  if (value >= minimum) return 1;
  const under = (minimum - value) / (minimum * tolerance);
  return Math.max(0, 1 - under);
}
