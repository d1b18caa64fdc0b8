// One autocannon run against one server: the requests of a scenario, throughput, latency
// percentiles of every response, and every kind of failure counted (the goals need zero errors).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import type { Dataset } from './dataset.js';

export type Resource = 'properties' | 'agents';
export type Operation = 'get' | 'list' | 'patch';

export interface Scenario {
  resource: Resource;
  operation: Operation;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Connection errors, timeouts and answers other than 2xx. */
  errors: number;
  /** CPU time of the serving process per answered request, in µs (set by run.ts for the runs at full speed). */
  cpuPerRequest?: number;
  /** At a fixed rate: the p99 of how late the generator sent a request (its own loop busy), in ms; counted in the latencies too. */
  sendLateP99?: number;
  /** At a fixed rate: the generator's longest loop stall while counting, in ms (an answer read late counts late too). */
  generatorStallMax?: number;
  /** At a fixed rate with `trace`: every counted request. */
  trace?: RequestTrace;
}

export interface RequestTrace {
  /** Wall-clock moment the first counted request was due, ms since the epoch. */
  countedAt: number;
  /** Requests per second: the k-th counted request was due k × 1000 / rate ms after `countedAt`. */
  rate: number;
  /** The counted requests' latencies in ms, in the order they were due; null for a failed one. */
  latencies: (number | null)[];
}

const LIST_STATUSES: Record<Resource, string[]> = {
  properties: ['active', 'draft', 'reserved'],
  agents: ['active', 'retired'],
};
const PATCHED_FIELD: Record<Resource, string> = { properties: 'title', agents: 'description' };

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)];

/** The request of a scenario, new for every call (a random record, status or value). */
function requestOf(
  { resource, operation }: Scenario,
  data: Dataset,
): { method: 'GET' | 'PATCH'; path: string; body?: string } {
  const ids = resource === 'properties' ? data.propertyIds : data.agentIds;
  if (operation === 'get') return { method: 'GET', path: `/v1/${resource}/${pick(ids)}` };
  if (operation === 'list')
    return { method: 'GET', path: `/v1/${resource}?limit=25&status=${pick(LIST_STATUSES[resource])}` };
  // A new value every time: an unchanged patch would write nothing.
  const body = JSON.stringify({ [PATCHED_FIELD[resource]]: `Bench ${Math.random().toString(36).slice(2, 10)}` });
  return { method: 'PATCH', path: `/v1/${resource}/${pick(ids)}`, body };
}

export interface LoadOptions {
  url: string;
  key: string;
  scenario: Scenario;
  data: Dataset;
  seconds: number;
  connections?: number;
  /** Requests per second in all; unset: as fast as the server answers. */
  rate?: number;
  /** At a fixed rate: seconds sent before the counted ones (default 2). */
  warmUpSeconds?: number;
  /** At a fixed rate: called when the first counted request is due. */
  onCounting?: () => void;
  /** At a fixed rate: keep every counted request's latency (`LoadResult.trace`). */
  trace?: boolean;
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  return options.rate ? atFixedRate({ ...options, rate: options.rate }) : asFastAsAnswered(options);
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/**
 * Requests sent at evenly spaced moments, whatever the answers do (an open loop); each latency is
 * counted from the moment the request was due, so a server that falls behind is not excused
 * (no coordinated omission). autocannon's rates send each second's requests in one burst instead.
 * The first `warmUpSeconds` run at the same rate but are not counted (errors excepted): the pool's
 * connections are opened then, and the code of both sides is compiled, which would otherwise be
 * the p99 of a short run.
 */
async function atFixedRate({
  url,
  key,
  scenario,
  data,
  seconds,
  connections = 50,
  rate,
  warmUpSeconds = 2,
  onCounting,
  trace,
}: LoadOptions & { rate: number }): Promise<LoadResult> {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const times: number[] = [];
  const late: number[] = [];
  let errors = 0;
  const warmUp = Math.round(rate * warmUpSeconds);
  const total = warmUp + Math.round(rate * seconds);
  const started = performance.now();
  const counted = started + (warmUp * 1000) / rate;
  // Filled in as answers come, by position: due order, and no allocation per request.
  const traced = trace ? new Float64Array(total - warmUp).fill(Number.NaN) : undefined;
  let countedAt = 0;
  // Counted, not kept: thousands of settled promises held to the end grew the generator's heap and its pauses.
  let pending = 0;
  let allAnswered!: () => void;
  const answered = new Promise<void>((resolve) => (allAnswered = resolve));
  const settled = () => {
    if (--pending === 0 && sent === total) allAnswered();
  };
  let sent = 0;
  const stalls = monitorEventLoopDelay({ resolution: 1 });
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(Math.floor(wait));
    const request = requestOf(scenario, data);
    const counts = i >= warmUp;
    if (i === warmUp) {
      countedAt = Date.now() - (performance.now() - counted); // the wall clock now, not at the process's start
      onCounting?.();
      stalls.enable();
    }
    if (counts) late.push(performance.now() - due);
    pending++;
    sent++;
    pool
      .request({
        method: request.method,
        path: request.path,
        body: request.body,
        headers: { apikey: key, 'content-type': 'application/json' },
      })
      .then(async (res) => {
        await res.body.dump();
        if (res.statusCode >= 300) errors++;
        const latency = performance.now() - due;
        if (counts) times.push(latency);
        if (counts && traced) traced[i - warmUp] = latency;
      })
      .catch(() => void errors++)
      .finally(settled);
  }
  if (pending > 0) await answered;
  stalls.disable();
  const elapsed = (performance.now() - counted) / 1000;
  await pool.close();
  times.sort((a, b) => a - b);
  late.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    rps: times.length / elapsed,
    p50: round(percentile(times, 0.5)),
    p95: round(percentile(times, 0.95)),
    p99: round(percentile(times, 0.99)),
    errors,
    sendLateP99: round(Math.max(0, percentile(late, 0.99))),
    generatorStallMax: round(stalls.max / 1e6),
    trace: traced && {
      countedAt,
      rate,
      latencies: Array.from(traced, (latency) => (Number.isNaN(latency) ? null : latency)),
    },
  };
}

/** autocannon's closed loop: each connection sends its next request when the last is answered. */
async function asFastAsAnswered({
  url,
  key,
  scenario,
  data,
  seconds,
  connections = 50,
}: LoadOptions): Promise<LoadResult> {
  const times: number[] = [];
  let finish!: (error: Error | null, result: autocannon.Result) => void;
  const done = new Promise<autocannon.Result>(
    (resolve, reject) => (finish = (error, result) => (error ? reject(error) : resolve(result))),
  );
  const instance = autocannon(
    {
      url,
      connections,
      duration: seconds,
      headers: { apikey: key, 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request) => {
            const next = requestOf(scenario, data);
            return { ...request, method: next.method, path: next.path, body: next.body };
          },
        },
      ],
    },
    (error, result) => finish(error, result),
  );
  instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  const result = await done;
  times.sort((a, b) => a - b);
  return {
    rps: result.requests.total / result.duration,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
    errors: result.errors + result.timeouts + result.non2xx,
  };
}
