/** Retries after each failed attempt: 1 min, 5 min, 30 min, 2 h, 6 h; then the delivery is failed. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const;

/** An endpoint with no success for this long (counted from its first failure since the last success) is paused. */
export const PAUSE_AFTER_MS = 24 * 3_600_000;

/** A 2xx must arrive within this time. */
export const DELIVERY_TIMEOUT_MS = 5_000;

/** During a secret rotation both secrets sign for this long. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** Delay before retry number `retry` (1-based), or undefined when no retry is left. */
export function retryDelay(retry: number, delays: readonly number[] = RETRY_DELAYS_MS): number | undefined {
  return delays[retry - 1];
}
