import { validationError } from '@platform/http';

/** How far a consent's time may lie ahead of the server's clock: the sender's clock may run a little fast. */
export const GIVEN_AT_CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * The time a consent was given, refused (422 `ausserhalb_bereich` on `field`) when it lies in the
 * future beyond the clock skew: a consent is evidence of something that happened, and one dated
 * ahead would look valid before it was given.
 */
export function assertGivenByNow(erteiltAm: string, now: Date, field: string): Date {
  const given = new Date(erteiltAm);
  if (given.getTime() > now.getTime() + GIVEN_AT_CLOCK_SKEW_MS)
    throw validationError(
      [{ field, reason: 'out_of_range' }],
      `\`${field}\` lies in the future: a consent can only be recorded once given (5 minutes of clock skew are allowed).`,
      `\`${field}\` liegt in der Zukunft: eine Einwilligung kann erst erfasst werden, wenn sie erteilt ist (5 Minuten Uhrabweichung sind erlaubt).`,
    );
  return given;
}
