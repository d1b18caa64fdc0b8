// The job worker of bench/listings.ts in a process of its own, as apps/worker runs it in production:
// it renders the exposés (in its sandbox's child processes). Starts on the first line of stdin
// (`start`); each further line `stats` is answered on stdout with one JSON line: the sandbox's tasks
// since the last `stats` (count, failed, duration and the child's peak RSS, p50 / p95 / max, from the
// pool's `onTask` samples). Exits on SIGTERM.
import { createInterface } from 'node:readline';
import { createPrisma } from '@platform/db';
import { PROPERTY_JOBS } from '@platform/property-service';
import { createJobQueue, startJobWorker } from '@platform/service';
import { DEFAULT_SANDBOX, openSandbox } from '@platform/runtime';
import type { TaskSample } from '@platform/sandbox';
import { createFilesystemStorage } from '@platform/storage';

const env = process.env as Record<string, string>;
const db = createPrisma({ url: env.BENCH_DATABASE_URL, maxConnections: 10 });
const connection = { host: '127.0.0.1', port: Number(env.BENCH_REDIS_PORT), maxRetriesPerRequest: null };
const storage = createFilesystemStorage({ root: env.BENCH_BLOBS });
const jobs = createJobQueue(connection);
let samples: TaskSample[] = [];
const sandbox = openSandbox({ sandbox: DEFAULT_SANDBOX }, { onTask: (sample) => samples.push(sample) });
await db.$queryRaw`SELECT 1`;
process.stdout.write('ready\n');

function stats() {
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const at = (xs: number[], p: number) =>
    xs.length === 0 ? 0 : xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  const ms = sorted(samples.map((s) => s.ms));
  const rss = sorted(samples.map((s) => s.peakRssBytes / 1024 / 1024));
  const summary = {
    tasks: samples.length,
    failed: samples.filter((s) => s.outcome !== 'ok').length,
    ms: { p50: Math.round(at(ms, 0.5)), p95: Math.round(at(ms, 0.95)), max: Math.round(at(ms, 1)) },
    peak_rss_mib: { p50: Math.round(at(rss, 0.5)), p95: Math.round(at(rss, 0.95)), max: Math.round(at(rss, 1)) },
  };
  samples = [];
  return summary;
}

let worker: ReturnType<typeof startJobWorker> | undefined;
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'start' && !worker) {
    worker = startJobWorker(PROPERTY_JOBS, () => ({ db, storage, sandbox, jobs, now: new Date() }), {
      connection,
      concurrency: Number(env.BENCH_CONCURRENCY ?? 4),
    });
  } else if (line === 'stats') {
    process.stdout.write(`${JSON.stringify(stats())}\n`);
  }
});
process.on('SIGTERM', async () => {
  await worker?.close();
  await sandbox.close();
  await jobs.close();
  await db.$disconnect();
  process.exit(0);
});
