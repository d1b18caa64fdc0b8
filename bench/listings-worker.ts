// The job worker of bench/listings.ts in a process of its own, as apps/worker runs it in production:
// it renders the exposés. Starts on the first line of stdin; exits on SIGTERM.
import { createPrisma } from '@platform/db';
import { PROPERTY_JOBS } from '@platform/property-service';
import { createJobQueue, startJobWorker } from '@platform/service';
import { DEFAULT_SANDBOX, openSandbox } from '@platform/runtime';
import { createFilesystemStorage } from '@platform/storage';

const env = process.env as Record<string, string>;
const db = createPrisma({ url: env.BENCH_DATABASE_URL, maxConnections: 10 });
const connection = { host: '127.0.0.1', port: Number(env.BENCH_REDIS_PORT), maxRetriesPerRequest: null };
const storage = createFilesystemStorage({ root: env.BENCH_BLOBS });
const jobs = createJobQueue(connection);
const sandbox = openSandbox({ sandbox: DEFAULT_SANDBOX });
await db.$queryRaw`SELECT 1`;
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const worker = startJobWorker(PROPERTY_JOBS, () => ({ db, storage, sandbox, jobs, now: new Date() }), { connection, concurrency: Number(env.BENCH_CONCURRENCY ?? 4) });
process.on('SIGTERM', async () => {
  await worker.close();
  await sandbox.close();
  await jobs.close();
  await db.$disconnect();
  process.exit(0);
});
