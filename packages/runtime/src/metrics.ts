import { createServer, type Server } from 'node:http';
import { format } from 'node:util';
import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
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

/** The labels of a request's series, as prom-client's histogram keeps them. */
interface RequestLabels {
  service: string;
  method: string;
  route: string;
  status_code: number;
}

interface RequestSeries {
  labels: RequestLabels;
  /** Observations per bucket (not cumulative), by the index of its upper bound. */
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * `http_request_duration_seconds`: a histogram by service, method, route pattern and status, read
 * by the registry exactly as a prom-client Histogram of these labels and buckets is (same series
 * in the same order, same lines). Observing a request is a lookup by one string and a few
 * additions: prom-client's own histogram checks and hashes the labels of every observation (and
 * makes a closure and two objects), some µs of every request.
 */
class RequestDurations {
  readonly name = 'http_request_duration_seconds';
  readonly help = 'Duration of answered HTTP requests by route pattern and status.';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private series = new Map<string, RequestSeries>();

  constructor(
    private readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  observe(sample: RequestSample): void {
    const seconds = sample.seconds;
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${format(seconds)}`);
    const key = `${sample.service}\n${sample.method}\n${sample.route}\n${sample.statusCode}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = {
        service: sample.service,
        method: sample.method,
        route: sample.route,
        status_code: sample.statusCode,
      };
      series = { labels, buckets: this.upperBounds.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]) {
        series.buckets[i]++;
        break;
      }
    }
    series.sum += seconds;
    series.count += 1;
  }

  /** What prom-client's Histogram gives the registry for its text format. */
  async getForPromString() {
    const bucket = `${this.name}_bucket`;
    const values = [];
    for (const { labels, buckets, sum, count } of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i < this.upperBounds.length; i++) {
        cumulative += buckets[i];
        values.push(value({ le: this.upperBounds[i] }, cumulative, bucket, null, labels));
      }
      values.push(
        value({ le: '+Inf' }, count, bucket, null, labels),
        value({}, sum, `${this.name}_sum`, undefined, labels),
        value({}, count, `${this.name}_count`, undefined, labels),
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** What prom-client's Histogram answers to `get` (JSON): the series' labels merged into each value's. */
  async get() {
    const data = await this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ sharedLabels, labels, ...rest }) => ({
        ...rest,
        labels: { ...labels, ...sharedLabels },
      })),
    };
  }

  reset(): void {
    this.series = new Map();
  }
}

function value(
  labels: Record<string, string | number>,
  amount: number,
  metricName: string,
  exemplar: null | undefined,
  sharedLabels: RequestLabels,
) {
  return { labels, sharedLabels, value: amount, metricName, exemplar };
}

/** The process's Prometheus metrics; scraped from a port of their own, never the public one. */
export class ProcessMetrics {
  readonly registry = new Registry();
  private readonly requests = new RequestDurations(
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    this.registry,
  );
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
  /** Key lookups counted since the last scrape, per series in the order each was first seen. */
  private readonly keyLookupsPending = new Map<
    string,
    { labels: { service: string; result: string }; count: number }
  >();
  private readonly keyLookups = new Counter({
    name: 'api_key_cache_lookups_total',
    help: 'API key lookups answered by the cache (hit) or the database (miss).',
    labelNames: ['service', 'result'],
    registers: [this.registry],
    // Every request looks its key up: counted in a plain number, added to the counter when it is read.
    collect: () => {
      for (const pending of this.keyLookupsPending.values()) {
        if (pending.count === 0) continue;
        this.keyLookups.inc(pending.labels, pending.count);
        pending.count = 0;
      }
    },
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
    this.requests.observe(sample);
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
    const pendingOf = (result: 'hit' | 'miss') => {
      const key = `${service}\n${result}`;
      let pending = this.keyLookupsPending.get(key);
      if (!pending) this.keyLookupsPending.set(key, (pending = { labels: { service, result }, count: 0 }));
      return pending;
    };
    let hit: { count: number } | undefined;
    let miss: { count: number } | undefined;
    return (result) => {
      if (result === 'hit') (hit ??= pendingOf('hit')).count++;
      else (miss ??= pendingOf('miss')).count++;
    };
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
