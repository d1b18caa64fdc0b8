// What the database benchmarks share: a private embedded PostgreSQL with the schema, and percentiles.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrisma, runMigrations, startEmbeddedPostgres } from '@platform/db';

/** A migrated embedded PostgreSQL (fsync on, as in production) with the bench account(s); `close` removes it. */
export async function startBenchDatabase(name: string, accounts: string[] = ['acct_bench']) {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const pg = await startEmbeddedPostgres({ dataDir: dir, port: 25_000 + Math.floor(Math.random() * 5_000), persistent: false });
  await runMigrations(pg.adminUrl);
  const db = createPrisma({ url: pg.adminUrl });
  for (const id of accounts) await db.account.create({ data: { id, name: id } });
  return {
    db,
    async close() {
      await db.$disconnect();
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** p50, p95 and max in ms of the timings after the first `warmUp` runs. */
export function percentiles(times: number[], warmUp = 5) {
  const sorted = times.slice(warmUp).sort((a, b) => a - b);
  const pct = (p: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1));
  return { p50_ms: pct(50), p95_ms: pct(95), max_ms: pct(100) };
}
