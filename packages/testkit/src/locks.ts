import type { TestDatabase } from './database.js';

/** How many sessions of the test database wait on a lock right now. */
export async function lockWaiters(db: TestDatabase): Promise<number> {
  const [{ n }] = await db.query<{ n: string }>(
    "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
  );
  return Number(n);
}

/**
 * Waits (up to ~2 s) until `count` sessions wait on a lock, or `settled()` says the work under
 * test finished without waiting. Tests hold a row lock, start concurrent requests, wait here, then
 * release, so that the requests really interleave.
 */
export async function untilLockWaiters(
  db: TestDatabase,
  count: number,
  settled: () => boolean = () => false,
): Promise<number> {
  let waiters = await lockWaiters(db);
  for (let i = 0; i < 200 && waiters < count && !settled(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    waiters = await lockWaiters(db);
  }
  return waiters;
}

/**
 * Runs `hold` in a transaction (a row lock, or a write not yet committed), starts `requests`
 * while it is open, waits until `waiters` of them block on it (or they settle without
 * blocking), then commits. Returns the requests' results and how many were seen waiting, so a
 * test can force two operations to interleave and prove a lock is needed.
 */
export async function whileHeld<T>(
  db: TestDatabase,
  hold: (tx: Parameters<Parameters<TestDatabase['prisma']['$transaction']>[0]>[0]) => Promise<unknown>,
  requests: () => Promise<T>,
  waiters = 1,
): Promise<{ result: T; waited: number }> {
  const { pending, waited } = await db.prisma.$transaction(
    async (tx) => {
      await hold(tx);
      const pending = requests();
      let settled = false;
      void pending.then(
        () => (settled = true),
        () => (settled = true),
      );
      const waited = await untilLockWaiters(db, waiters, () => settled);
      return { pending, waited }; // inside an object: returning the promise itself would make the transaction wait for it
    },
    { timeout: 10_000 },
  );
  return { result: await pending, waited };
}
