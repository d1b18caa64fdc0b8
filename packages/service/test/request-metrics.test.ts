import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ProcessMetrics } from '@platform/runtime';
import type { RequestSample } from '../src/index.js';

// prom-client as @platform/runtime has it (the service package does not depend on it).
const fromRuntime = createRequire(createRequire(import.meta.url).resolve('@platform/runtime'));
type Registry = ProcessMetrics['registry'];
const { Counter, Histogram, Registry } = fromRuntime('prom-client') as {
  Registry: new () => Registry;
  Histogram: new (config: object) => { observe(labels: object, value: number): void };
  Counter: new (config: object) => { inc(labels: object): void };
};

const NAME = 'http_request_duration_seconds';
const LOOKUPS = 'api_key_cache_lookups_total';

/** What the service app reported before: prom-client's own histogram and counter of the same names, labels and buckets. */
function reference() {
  const registry = new Registry();
  const requests = new Histogram({
    name: NAME,
    help: 'Duration of answered HTTP requests by route pattern and status.',
    labelNames: ['service', 'method', 'route', 'status_code'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const lookups = new Counter({
    name: LOOKUPS,
    help: 'API key lookups answered by the cache (hit) or the database (miss).',
    labelNames: ['service', 'result'],
    registers: [registry],
  });
  return {
    registry,
    observeRequest: (sample: RequestSample) =>
      requests.observe(
        { service: sample.service, method: sample.method, route: sample.route, status_code: sample.statusCode },
        sample.seconds,
      ),
    keyLookup: (service: string) => (result: 'hit' | 'miss') => lookups.inc({ service, result }),
  };
}

const samples: RequestSample[] = [
  { service: 'property', method: 'GET', route: '/v1/properties/:propertyId', statusCode: 200, seconds: 0.0004 },
  { service: 'property', method: 'GET', route: '/v1/properties/:propertyId', statusCode: 200, seconds: 0.001 },
  { service: 'property', method: 'GET', route: '/v1/properties', statusCode: 200, seconds: 0.0031 },
  { service: 'property', method: 'PATCH', route: '/v1/properties/:propertyId', statusCode: 422, seconds: 0.02 },
  { service: 'property', method: 'GET', route: '(unmatched)', statusCode: 404, seconds: 12.5 },
  { service: 'agent_platform', method: 'GET', route: '/v1/agents/:agentId', statusCode: 200, seconds: 0.7 },
  { service: 'property', method: 'GET', route: '/v1/properties/:propertyId', statusCode: 200, seconds: 0.0123 },
  { service: 'property', method: 'GET', route: '/v1/a"b\\c', statusCode: 500, seconds: 2.5 },
];

describe('the request metrics of the service app', () => {
  it('read as prom-client writes its histogram and counter: the same series, order, lines and JSON', async () => {
    const ours = new ProcessMetrics();
    const theirs = reference();
    const ourLookups = [ours.keyLookup('property'), ours.keyLookup('agent_platform')];
    const theirLookups = [theirs.keyLookup('property'), theirs.keyLookup('agent_platform')];
    const lookups: [number, 'hit' | 'miss'][] = [
      [0, 'miss'],
      [0, 'hit'],
      [1, 'hit'],
      [0, 'hit'],
      [1, 'miss'],
    ];
    const scrape = async () => {
      expect(await ours.registry.getSingleMetricAsString(NAME)).toBe(
        await theirs.registry.getSingleMetricAsString(NAME),
      );
      expect(await ours.registry.getSingleMetricAsString(LOOKUPS)).toBe(
        await theirs.registry.getSingleMetricAsString(LOOKUPS),
      );
      expect(await ours.registry.getSingleMetric(NAME)!.get()).toEqual(
        await theirs.registry.getSingleMetric(NAME)!.get(),
      );
    };
    await scrape(); // nothing observed yet
    for (const [i, sample] of samples.entries()) {
      ours.observeRequest(sample);
      theirs.observeRequest(sample);
      const [service, result] = lookups[i % lookups.length];
      ourLookups[service](result);
      theirLookups[service](result);
      if (i === 3) await scrape(); // between observations too: counts added once, not again
    }
    await scrape();
    await scrape();
    const text = await ours.registry.getSingleMetricAsString(NAME);
    expect(text).toContain(
      'http_request_duration_seconds_count{service="property",method="GET",route="/v1/properties/:propertyId",status_code="200"} 3',
    );
  });

  it('refuses a duration that is not a number, as prom-client does', () => {
    const sample = { ...samples[0], seconds: Number.NaN };
    expect(() => new ProcessMetrics().observeRequest(sample)).toThrow('Value is not a valid number: NaN');
    expect(() => reference().observeRequest(sample)).toThrow('Value is not a valid number: NaN');
  });
});
