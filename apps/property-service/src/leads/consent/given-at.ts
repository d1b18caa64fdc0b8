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

/**
 * A marketing consent given at or before the prospect's latest marketing withdrawal is refused
 * (422 `ausserhalb_bereich` on `field`): that withdrawal ended it (Art. 7(3)), so a client sending
 * its stored copy back (a CRM sync) cannot bring it back; consent given again has a later time.
 */
export function assertGivenAfterWithdrawal(given: Date, withdrawnAt: Date | null, field: string): void {
  if (!withdrawnAt || given.getTime() > withdrawnAt.getTime()) return;
  throw validationError(
    [{ field, reason: 'out_of_range' }],
    `\`${field}\` is not later than the withdrawal of marketing consent at ${withdrawnAt.toISOString()}: that withdrawal ended it; consent given again needs the time it was given.`,
    `\`${field}\` liegt nicht nach dem Widerruf der Werbeeinwilligung am ${withdrawnAt.toISOString()}: der Widerruf hat sie beendet; eine erneut erteilte Einwilligung braucht den Zeitpunkt ihrer Erteilung.`,
  );
}
