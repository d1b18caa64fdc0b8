// PostgreSQL shuts down (fast mode: every backend gets 57P01 and its socket closed) while direct
// transactions, direct reads and Prisma transactions are running on one pool: every one of them
// fails or succeeds, and no connection error reaches the process as an uncaught 'error' event.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPrisma,
  inDirectTransaction,
  readRows,
  startEmbeddedPostgres,
  type EmbeddedDatabase,
  type PrismaClient,
} from '@platform/db';
import { freePort } from '@platform/testkit';

const tempDir = mkdtempSync(join(tmpdir(), 'pg-shutdown-'));
const dataDir = join(tempDir, 'postgres');
let port: number;
let postgres: EmbeddedDatabase;
let prisma: PrismaClient;
const startPostgres = () =>
  startEmbeddedPostgres({
    dataDir,
    port,
    superuserPassword: 'shutdown-test',
    persistent: true,
    durable: false,
    stopOnSignals: false,
  });

const uncaught: unknown[] = [];
const record = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  port = await freePort();
  postgres = await startPostgres();
  prisma = createPrisma({ url: postgres.urlFor('postgres'), maxConnections: 6 });
  await prisma.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS counters (id int PRIMARY KEY, n int NOT NULL)');
  await prisma.$executeRawUnsafe('INSERT INTO counters VALUES (1, 0) ON CONFLICT DO NOTHING');
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
}, 60_000);

afterAll(async () => {
  process.off('uncaughtException', record);
  process.off('unhandledRejection', record);
  await prisma?.$disconnect();
  await postgres?.stop();
  rmSync(tempDir, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function loop(stop: () => boolean, work: () => Promise<unknown>): Promise<{ ok: number; failed: number }> {
  const counts = { ok: 0, failed: 0 };
  while (!stop()) {
    try {
      await work();
      counts.ok++;
    } catch {
      counts.failed++;
      await pause(5);
    }
  }
  return counts;
}

describe('a PostgreSQL shutdown under load', () => {
  it('fails the work in flight and ends no process, over several restarts', async () => {
    for (let round = 0; round < 3; round++) {
      let done = false;
      const stop = () => done;
      const loops = [
        ...Array.from({ length: 3 }, () =>
          loop(stop, () =>
            inDirectTransaction(prisma, async (tx) => {
              await tx.$queryRawUnsafe('SELECT n FROM counters WHERE id = 1 FOR UPDATE');
              await pause(Math.random() * 3); // between statements: no query active when the server goes
              await tx.$executeRawUnsafe('UPDATE counters SET n = n + 1 WHERE id = 1');
            }),
          ),
        ),
        loop(stop, () => readRows(prisma, 'SELECT n FROM counters WHERE id = $1', [1])),
        loop(stop, () =>
          prisma.$transaction(async (tx) => tx.$executeRawUnsafe('UPDATE counters SET n = n + 1 WHERE id = 1')),
        ),
      ];
      try {
        await pause(300 + Math.random() * 300);
        await postgres.stop();
        await pause(500);
        postgres = await startPostgres();
        await pause(300);
      } finally {
        done = true; // also when the restart fails: the loops must not run on
      }
      const counts = await Promise.all(loops);
      expect(counts.every((c) => c.ok > 0)).toBe(true);
      await pause(50);
      expect(uncaught).toEqual([]);
    }
  }, 120_000);
});
