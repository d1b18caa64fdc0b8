// Webhook throughput and latency: events are created through the property API (real HTTP), relayed,
// queued in Redis and delivered to a local receiver. Reports deliveries/s and commit → receipt latency.
//   pnpm bench:webhooks [--events 10000] [--rate 200] [--seconds 15] [--warmup 10] [--endpoints 1] [--workers 1]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { Agent, request } from 'undici';
import { startPropertyStack } from './property-stack.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '15' },
    endpoints: { type: 'string', default: '1' },
    workers: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '10' },
  },
});
const EVENTS = Number(values.events);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const ENDPOINTS = Number(values.endpoints);
const WORKERS = Number(values.workers);
const WARMUP = Number(values.warmup);

const stack = await startPropertyStack({ name: 'webhooks', scopes: ['properties:read', 'properties:write'] }); // nothing is uploaded or generated; the app needs a storage and a queue
const { apiUrl, key } = stack;

// Receiver: records when each event id arrives.
const receivedAt = new Map<string, { createdAt: number; latency: number }[]>();
let received = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const now = Date.now();
    const event = JSON.parse(Buffer.concat(chunks).toString()) as { id: string; created_at: string };
    received++;
    const list = receivedAt.get(event.id) ?? [];
    list.push({ createdAt: Date.parse(event.created_at), latency: now - Date.parse(event.created_at) });
    receivedAt.set(event.id, list);
    res.writeHead(202).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const client = new Agent({ connections: 64 });
const call = (method: 'POST' | 'GET', path: string, body?: object) =>
  request(`${apiUrl}${path}`, {
    method,
    dispatcher: client,
    headers: { apikey: key, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then(async (r) => {
    const text = await r.body.text();
    if (r.statusCode >= 300) throw new Error(`${r.statusCode} ${text}`);
    return text;
  });
for (let i = 0; i < ENDPOINTS; i++)
  await call('POST', '/v1/webhooks', { url: `${receiverUrl}/hook/${i}`, events: ['property.created'] });

const property = { type: 'apartment', title: 'Benchmark flat', address: { postal_code: '10115', city: 'Berlin' } };

/** The relay and worker run in their own process (as in production), so they get a core of their own. */
async function startWorkerProcess() {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
      '--import',
      'tsx',
      new URL('./worker-process.ts', import.meta.url).pathname,
    ],
    {
      env: {
        ...process.env,
        BENCH_DATABASE_URL: stack.databaseUrl,
        BENCH_REDIS_PORT: String(stack.redisPort),
        BENCH_SECRET_KEY: stack.secretKey,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return child;
}

async function stopWorkers(children: Awaited<ReturnType<typeof startWorkerProcess>>[]): Promise<void> {
  for (const child of children) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function waitForDeliveries(expected: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (received < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

// 1. Latency at a steady RATE events/s for SECONDS seconds, on a fresh system: commit (event created_at) → receipt.
const latencyWorkers = await Promise.all(Array.from({ length: WORKERS }, () => startWorkerProcess()));
for (const worker of latencyWorkers) worker.stdin!.write('start\n');
received = 0;
receivedAt.clear();
const total = RATE * (WARMUP + SECONDS); // the first WARMUP seconds warm the JIT and pools and are not counted
const paceStart = Date.now();
const inflight: Promise<unknown>[] = [];
for (let i = 0; i < total; i++) {
  const due = paceStart + (i * 1000) / RATE;
  const wait = due - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  inflight.push(call('POST', '/v1/properties', property));
}
await Promise.all(inflight);
await waitForDeliveries(total * ENDPOINTS, 60_000);
const measuredFrom = paceStart + WARMUP * 1000;
const latencies = [...receivedAt.values()]
  .flat()
  .filter((r) => r.createdAt >= measuredFrom)
  .map((r) => r.latency)
  .sort((a, b) => a - b);
const latency = {
  rate_per_second: RATE,
  warmup_seconds: WARMUP,
  measured_seconds: SECONDS,
  deliveries: latencies.length,
  p50_ms: percentile(latencies, 50),
  p99_ms: percentile(latencies, 99),
  max_ms: latencies.at(-1),
};

await stopWorkers(latencyWorkers);

// 2. Throughput: EVENTS events created through the API (outbox rows, relay not yet running), then
//    the relay and worker (started and connected beforehand) drain them; deliveries/s = deliveries / drain time.
const workers = await Promise.all(Array.from({ length: WORKERS }, () => startWorkerProcess()));
received = 0;
receivedAt.clear();
const start = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < EVENTS) {
      next++;
      await call('POST', '/v1/properties', property);
    }
  }),
);
const created = Date.now();
for (const worker of workers) worker.stdin!.write('start\n');
await waitForDeliveries(EVENTS * ENDPOINTS, 180_000);
const end = Date.now();
const throughput = {
  events: EVENTS,
  deliveries: received,
  api_events_per_second: Math.round(EVENTS / ((created - start) / 1000)),
  drain_seconds: (end - created) / 1000,
  deliveries_per_second: Math.round(received / ((end - created) / 1000)),
};

console.log(
  JSON.stringify({ endpoints_per_event: ENDPOINTS, worker_processes: WORKERS, throughput, latency }, null, 2),
);

await stopWorkers(workers);
receiver.close();
await client.close();
await stack.close();
process.exit(0);
