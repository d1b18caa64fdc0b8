import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isUniqueViolation, postgresError } from '../src/index.js';

/** The shape Prisma with the pg adapter throws for a raw query: its own code outside, the driver's beneath. */
const wrapped = (code: string, message: string) =>
  Object.assign(new Error('Raw query failed.'), {
    code: 'P2010',
    meta: {
      driverAdapterError: Object.assign(new Error(message), {
        cause: { originalCode: code, originalMessage: message },
      }),
    },
  });

describe('reading PostgreSQL errors beneath Prisma', () => {
  it("finds the SQLSTATE and the constraint beneath the wrapper, not the wrapper's own code", () => {
    const error = wrapped('23P01', 'conflicting key value violates exclusion constraint "appointments_host_overlap"');
    expect(postgresError(error)).toEqual({
      code: '23P01',
      text: 'conflicting key value violates exclusion constraint "appointments_host_overlap"',
    });
    expect(postgresError(new Error('plain'))).toBeUndefined();
  });

  it('knows a unique violation in both forms', () => {
    expect(isUniqueViolation(Object.assign(new Error('Unique constraint failed'), { code: 'P2002' }))).toBe(true);
    expect(
      isUniqueViolation(
        wrapped('23505', 'duplicate key value violates unique constraint "channels_account_id_name_key"'),
      ),
    ).toBe(true);
    expect(isUniqueViolation(wrapped('23P01', 'exclusion'))).toBe(false);
  });

  it('counts a transaction that could not start in time (P2028) as the database being unavailable (503, not 500)', () => {
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), {
          code: 'P2028',
        }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('Unique constraint failed'), { code: 'P2002' }))).toBe(false);
  });
});
