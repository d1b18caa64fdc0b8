// One autocannon run against one server: the requests of a scenario, throughput, latency
// percentiles of every response, and every kind of failure counted (the goals need zero errors).
import autocannon from 'autocannon';
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
}

const LIST_STATUSES: Record<Resource, string[]> = { properties: ['active', 'draft', 'reserved'], agents: ['active', 'retired'] };
const PATCHED_FIELD: Record<Resource, string> = { properties: 'title', agents: 'description' };

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)];

/** The request of a scenario, new for every call (a random record, status or value). */
function requestOf({ resource, operation }: Scenario, data: Dataset): { method: 'GET' | 'PATCH'; path: string; body?: string } {
  const ids = resource === 'properties' ? data.propertyIds : data.agentIds;
  if (operation === 'get') return { method: 'GET', path: `/v1/${resource}/${pick(ids)}` };
  if (operation === 'list') return { method: 'GET', path: `/v1/${resource}?limit=25&status=${pick(LIST_STATUSES[resource])}` };
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
}

export async function runLoad({ url, key, scenario, data, seconds, connections = 50, rate }: LoadOptions): Promise<LoadResult> {
  const times: number[] = [];
  let finish!: (error: Error | null, result: autocannon.Result) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => (finish = (error, result) => (error ? reject(error) : resolve(result))));
  const instance = autocannon({
    url,
    connections,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    headers: { apikey: key, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          const next = requestOf(scenario, data);
          return { ...request, method: next.method, path: next.path, body: next.body };
        },
      },
    ],
  }, (error, result) => finish(error, result));
  instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  const result = await done;
  times.sort((a, b) => a - b);
  const at = (p: number) => (times.length === 0 ? Number.NaN : times[Math.min(times.length - 1, Math.floor(p * times.length))]);
  return {
    rps: result.requests.total / result.duration,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    errors: result.errors + result.timeouts + result.non2xx,
  };
}
