// The property service of bench/uploads.ts in a process of its own, so that its RSS is measured and
// not the load generator's. Filesystem storage under BENCH_DATA_DIR/blobs, the database at
// BENCH_DATABASE_URL. Beside it, on a second port, a bare `node:http` server that streams a blob
// file with `fs.createReadStream` (GET /blob/<sha256>): the download baseline, under the same conditions.
// The sandbox's child processes (the upload decoding) are watched too: the pool's own sample of each
// task (`onTask`: its duration and the most resident memory its child was seen to hold, read every
// 20 ms) and, every 50 ms, VmRSS and VmHWM of this process's sandbox children from /proc.
// stdout: one JSON line when ready ({ api, bare }), then one JSON line per stdin command:
//   `mark`: { rss } now, and the peaks restart from it;  `peak`: { rss, peak, sandbox, loopDelay } since
//   the last mark (loopDelay: gaps between the event loop's 10 ms timer ticks, p99 and max in ms; 10 when never late).
// RSS is sampled every 50 ms (and at each command). Exits on SIGTERM or when stdin closes.
import { randomBytes } from 'node:crypto';
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createPrisma } from '@platform/db';
import { buildPropertyApp } from '@platform/property-service';
import { blobsDir, DEFAULT_SANDBOX, openSandbox, openStorage } from '@platform/runtime';
import type { TaskSample } from '@platform/sandbox';
import { SecretBox, type WebhookInfrastructure } from '@platform/webhooks';

const env = process.env as Record<string, string>;
const dataDir = env.BENCH_DATA_DIR;
const db = createPrisma({ url: env.BENCH_DATABASE_URL });
const storage = openStorage({ dataDir, storage: { driver: 'filesystem' } });
// Only the webhook routes use the delivery queue, and the benchmark calls none of them: no Redis.
const webhooks: WebhookInfrastructure = {
  queue: {} as WebhookInfrastructure['queue'],
  secrets: new SecretBox(randomBytes(32).toString('hex')),
  policy: { allowPrivateTargets: false },
};
// Nothing is generated: a queue that is never called.
const jobs = { enqueue: () => Promise.reject(new Error('no job queue in this benchmark')) };
let tasks: TaskSample[] = [];
const sandbox = openSandbox({ sandbox: DEFAULT_SANDBOX }, { onTask: (sample) => tasks.push(sample) });
const app = await buildPropertyApp({
  db,
  environment: 'sandbox',
  pepper: env.BENCH_PEPPER,
  logLevel: 'warn',
  storage,
  sandbox,
  webhooks,
  jobs,
  publicBaseUrl: 'http://localhost',
});
await app.listen({ port: 0, host: '127.0.0.1' });

const root = blobsDir({ dataDir });
const bare = createServer((req, res) => {
  const key = /^\/blob\/([0-9a-f]{64})$/.exec(req.url ?? '')?.[1];
  if (!key) return void res.writeHead(404).end();
  const path = join(root, key.slice(0, 2), key.slice(2, 4), key);
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return void res.writeHead(404).end();
  }
  res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': size });
  createReadStream(path).pipe(res);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));

/** This process's children that run Node (the sandbox's; not, e.g., esbuild's service), from /proc (Linux). */
function sandboxChildren(): number[] {
  const pids: number[] = [];
  try {
    for (const thread of readdirSync(`/proc/${process.pid}/task`)) {
      for (const pid of readFileSync(`/proc/${process.pid}/task/${thread}/children`, 'latin1').trim().split(/\s+/)) {
        if (pid === '') continue;
        try {
          if (readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0')[0] === process.execPath)
            pids.push(Number(pid));
        } catch {
          // gone meanwhile
        }
      }
    }
  } catch {
    // no /proc, or no children file: nothing to report
  }
  return pids;
}

/** VmRSS and VmHWM (the most it has held since it started) of a process, in bytes; null once gone. */
function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kB = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kB('VmRSS'), hwm: kB('VmHWM') };
  } catch {
    return null;
  }
}

let peak = 0;
/** Since the last mark: the largest VmRSS of one sandbox child, of all of them together, the largest VmHWM, and the most children at once. */
let children = { peakRss: 0, peakTotal: 0, hwm: 0, most: 0 };
const sample = () => {
  const rss = process.memoryUsage().rss;
  if (rss > peak) peak = rss;
  let total = 0;
  let alive = 0;
  for (const pid of sandboxChildren()) {
    const memory = memoryOf(pid);
    if (!memory) continue;
    alive += 1;
    total += memory.rss;
    children.peakRss = Math.max(children.peakRss, memory.rss);
    children.hwm = Math.max(children.hwm, memory.hwm);
  }
  children.peakTotal = Math.max(children.peakTotal, total);
  children.most = Math.max(children.most, alive);
  return rss;
};

/** The sandbox's tasks since the last mark: how many, how many failed, their children's peak RSS and their durations. */
function taskSummary() {
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const rss = sorted(tasks.map((t) => t.peakRssBytes));
  const ms = sorted(tasks.map((t) => t.ms));
  const at = (xs: number[], p: number) =>
    xs.length === 0 ? 0 : xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  return {
    count: tasks.length,
    failed: tasks.filter((t) => t.outcome !== 'ok').length,
    peakRssMedian: at(rss, 0.5),
    peakRssMax: at(rss, 1),
    msMedian: at(ms, 0.5),
    msMax: at(ms, 1),
  };
}
const sampler = setInterval(sample, 50);
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  clearInterval(sampler);
  bare.close();
  await app.close();
  await sandbox.close();
  await db.$disconnect();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

const port = (server: { address(): string | AddressInfo | null }) => (server.address() as AddressInfo).port;
process.stdout.write(
  `${JSON.stringify({ api: `http://127.0.0.1:${port(app.server)}`, bare: `http://127.0.0.1:${port(bare)}` })}\n`,
);

const lines = createInterface({ input: process.stdin });
lines.on('line', (command) => {
  const rss = sample();
  if (command === 'mark') {
    peak = rss;
    children = { peakRss: 0, peakTotal: 0, hwm: 0, most: 0 };
    tasks = [];
    loopDelay.reset();
    process.stdout.write(`${JSON.stringify({ rss })}\n`);
  } else {
    const delay = { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 };
    process.stdout.write(
      `${JSON.stringify({ rss, peak, sandbox: { ...children, tasks: taskSummary() }, loopDelay: delay })}\n`,
    );
  }
});
lines.on('close', stop);
