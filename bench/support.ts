// What the database benchmarks share: a private embedded PostgreSQL with the schema, and percentiles.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrisma, runMigrations, startEmbeddedPostgres, type EmbeddedDatabase } from '@platform/db';

/**
 * A migrated embedded PostgreSQL on `port` whose data dir is a fresh mkdtemp dir under tmpdir()
 * (the dir itself, so that the unprivileged postgres user can reach it), and a Prisma client on it
 * as the superuser; `close` disconnects, stops the server and removes the dir.
 */
export async function startMigratedDatabase(name: string, options: { port: number; durable?: boolean; maxConnections?: number }) {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  let pg: EmbeddedDatabase | undefined;
  try {
    pg = await startEmbeddedPostgres({ dataDir: dir, port: options.port, persistent: false, durable: options.durable });
    await runMigrations(pg.adminUrl);
  } catch (error) {
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const server = pg;
  const db = createPrisma({ url: server.adminUrl, maxConnections: options.maxConnections });
  return {
    db,
    pg: server,
    dataDir: dir,
    async close() {
      await db.$disconnect();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A migrated embedded PostgreSQL (fsync on, as in production) with the bench account(s); `close` removes it. */
export async function startBenchDatabase(name: string, accounts: string[] = ['acct_bench']) {
  const { db, close } = await startMigratedDatabase(name, { port: 25_000 + Math.floor(Math.random() * 5_000) });
  try {
    for (const id of accounts) await db.account.create({ data: { id, name: id } });
  } catch (error) {
    await close();
    throw error;
  }
  return { db, close };
}

/** p50, p95 and max in ms of the timings after the first `warmUp` runs. */
export function percentiles(times: number[], warmUp = 5) {
  const sorted = times.slice(warmUp).sort((a, b) => a - b);
  const pct = (p: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1));
  return { p50_ms: pct(50), p95_ms: pct(95), max_ms: pct(100) };
}
