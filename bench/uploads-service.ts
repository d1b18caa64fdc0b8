// The property service of bench/uploads.ts in a process of its own, so that its RSS is measured and
// not the load generator's. Filesystem storage under BENCH_DATA_DIR/blobs, the database at
// BENCH_DATABASE_URL. Beside it, on a second port, a bare `node:http` server that streams a blob
// file with `fs.createReadStream` (GET /blob/<sha256>): the download baseline, under the same conditions.
// stdout: one JSON line when ready ({ api, bare }), then one JSON line per stdin command:
//   `mark`: { rss } now, and the peak restarts from it;  `peak`: { rss, peak } since the last mark.
// RSS is sampled every 50 ms (and at each command). Exits on SIGTERM or when stdin closes.
import { randomBytes } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createPrisma } from '@platform/db';
import { buildPropertyApp } from '@platform/property-service';
import { blobsDir, DEFAULT_SANDBOX, openSandbox, openStorage } from '@platform/runtime';
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
const sandbox = openSandbox({ sandbox: DEFAULT_SANDBOX });
const app = await buildPropertyApp({ db, environment: 'sandbox', pepper: env.BENCH_PEPPER, logLevel: 'warn', storage, sandbox, webhooks, jobs, publicBaseUrl: 'http://localhost' });
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

let peak = 0;
const sample = () => {
  const rss = process.memoryUsage().rss;
  if (rss > peak) peak = rss;
  return rss;
};
const sampler = setInterval(sample, 50);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  clearInterval(sampler);
  bare.close();
  await app.close();
  await db.$disconnect();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

const port = (server: { address(): string | AddressInfo | null }) => (server.address() as AddressInfo).port;
process.stdout.write(`${JSON.stringify({ api: `http://127.0.0.1:${port(app.server)}`, bare: `http://127.0.0.1:${port(bare)}` })}\n`);

const lines = createInterface({ input: process.stdin });
lines.on('line', (command) => {
  const rss = sample();
  if (command === 'mark') {
    peak = rss;
    process.stdout.write(`${JSON.stringify({ rss })}\n`);
  } else {
    process.stdout.write(`${JSON.stringify({ rss, peak })}\n`);
  }
});
lines.on('close', stop);
