import { advisoryXactLock, type Db } from '@platform/db';
import { ApiError } from '@platform/http';
import type { TimeRange } from './time-range.js';

/** Finds what already takes a host's time in the range (its id), or null. */
export type HostTimeFinder = (tx: Db, accountId: string, host: string, range: TimeRange) => Promise<string | null>;

/**
 * A host's time can be taken by records of two tables that no one constraint spans (open viewing
 * slots and single appointments): a booking of either kind checks the other under a lock of the
 * host, taken after the participants' locks, always last, so the order stays fixed. A conflict is
 * a 409 naming it (`what`: "an open viewing slot").
 */
export async function assertHostFree(
  tx: Db,
  accountId: string,
  host: string | null,
  range: TimeRange,
  other: { what: string; find: HostTimeFinder },
): Promise<void> {
  if (host === null) return;
  await advisoryXactLock(tx, `host-time:${accountId}|${host}`);
  const conflicting = await other.find(tx, accountId, host, range);
  if (conflicting !== null) {
    throw new ApiError('conflict', {
      message: `The host has ${other.what} at that time.`,
      details: [{ field: 'host', reason: 'overlaps', conflicting_id: conflicting }],
    });
  }
}
