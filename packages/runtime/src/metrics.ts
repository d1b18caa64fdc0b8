import { createServer, type Server } from 'node:http';
import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { TaskSample } from '@platform/sandbox';
import type { RequestSample } from '@platform/service';
import type { AttemptReport } from '@platform/webhooks';

/** A queue whose depth is reported, under a name of its own. */
interface WatchedQueue {
  name: string;
  queue: Pick<Queue, 'getJobCounts'>;
}

const QUEUE_STATES = ['waiting', 'delayed', 'failed'] as const;

/** The delivery's outcome as operators read it (an attempt that will be retried has failed). */
const DELIVERY_OUTCOMES: Record<AttemptReport['outcome'], string> = {
  succeeded: 'delivered',
  retry: 'failed',
  failed: 'gave_up',
  held: 'held',
};

/**
 * BullMQ's connection waits for Redis forever: while Redis is away the queue depths are left out
 * instead of holding the whole scrape (event-loop lag and request metrics matter most then).
 */
function withinSecond<T>(promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), 1_000);
  });
  return Promise.race([promise.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/** The process's Prometheus metrics; scraped from a port of their own, never the public one. */
export class ProcessMetrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of answered HTTP requests by route pattern and status.',
    labelNames: ['service', 'method', 'route', 'status_code'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, failed (will be retried), gave_up (no retries left), held (endpoint paused).',
    labelNames: ['service', 'outcome'],
    registers: [this.registry],
  });
  private readonly deliveryLatency = new Histogram({
    name: 'webhook_delivery_latency_seconds',
    help: 'From an event’s creation to its successful delivery.',
    labelNames: ['service'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 21600, 86400],
    registers: [this.registry],
  });
  private readonly jobFailures = new Counter({
    name: 'job_failures_total',
    help: 'Failed runs of background jobs by job name (each failed attempt).',
    labelNames: ['job'],
    registers: [this.registry],
  });
  private readonly keyLookups = new Counter({
    name: 'api_key_cache_lookups_total',
    help: 'API key lookups answered by the cache (hit) or the database (miss).',
    labelNames: ['service', 'result'],
    registers: [this.registry],
  });
  private readonly sandboxTasks = new Histogram({
    name: 'sandbox_task_duration_seconds',
    help: 'Tasks on untrusted input in the sandbox (decoding an upload, rendering a document) by pool, task and outcome (ok, refused, failed, crashed, memory, timeout).',
    labelNames: ['pool', 'task', 'outcome'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  private readonly sandboxMemory = new Histogram({
    name: 'sandbox_task_peak_memory_bytes',
    help: 'The most resident memory a sandbox process was seen to hold during a task, by pool and task.',
    labelNames: ['pool', 'task'],
    buckets: [64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048].map((mb) => mb * 1024 * 1024),
    registers: [this.registry],
  });
  private readonly queues: WatchedQueue[] = [];

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const queues = this.queues;
    new Gauge({
      name: 'queue_jobs',
      help: 'Jobs in a queue by state (waiting, delayed, failed).',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const queue of queues) {
          // Redis may be away: the other metrics are still worth a scrape.
          const counts = await withinSecond(queue.queue.getJobCounts(...QUEUE_STATES));
          for (const state of QUEUE_STATES) if (counts) this.set({ queue: queue.name, state }, counts[state] ?? 0);
        }
      },
    });
  }

  readonly observeRequest = (sample: RequestSample): void => {
    this.requests.observe(
      { service: sample.service, method: sample.method, route: sample.route, status_code: sample.statusCode },
      sample.seconds,
    );
  };

  readonly observeDelivery = (attempt: AttemptReport): void => {
    this.deliveries.inc({ service: attempt.service, outcome: DELIVERY_OUTCOMES[attempt.outcome] });
    if (attempt.outcome === 'succeeded')
      this.deliveryLatency.observe({ service: attempt.service }, attempt.sinceEventSeconds);
  };

  readonly jobFailed = (job: string): void => {
    this.jobFailures.inc({ job });
  };

  observeSandboxTask(pool: string): (sample: TaskSample) => void {
    return (sample) => {
      this.sandboxTasks.observe({ pool, task: sample.task, outcome: sample.outcome }, sample.ms / 1000);
      if (sample.peakRssBytes > 0) this.sandboxMemory.observe({ pool, task: sample.task }, sample.peakRssBytes);
    };
  }

  keyLookup(service: string): (result: 'hit' | 'miss') => void {
    return (result) => this.keyLookups.inc({ service, result });
  }

  watchQueue(name: string, queue: Pick<Queue, 'getJobCounts'>): void {
    this.queues.push({ name, queue });
  }
}

/**
 * Serves `/metrics` (Prometheus text) and `/health/live` on their own port; the worker has no
 * other HTTP port, so its liveness probe comes here too.
 */
export async function startMetricsServer(metrics: ProcessMetrics, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET') {
      response.writeHead(405, { allow: 'GET' }).end();
    } else if (path === '/metrics') {
      metrics.registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
        () => response.writeHead(500).end(),
      );
    } else if (path === '/health/live') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
