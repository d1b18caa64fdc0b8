import type { TestDatabase } from './database.js';

/** How many sessions of the test database wait on a lock right now. */
export async function lockWaiters(db: TestDatabase): Promise<number> {
  const [{ n }] = await db.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
  return Number(n);
}

/**
 * Waits (up to ~2 s) until `count` sessions wait on a lock, or `settled()` says the work under
 * test finished without waiting. Tests hold a row lock, start concurrent requests, wait here, then
 * release, so that the requests really interleave.
 */
export async function untilLockWaiters(db: TestDatabase, count: number, settled: () => boolean = () => false): Promise<number> {
  let waiters = await lockWaiters(db);
  for (let i = 0; i < 200 && waiters < count && !settled(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    waiters = await lockWaiters(db);
  }
  return waiters;
}
