// The error answers every operation gives without data of its own (401, 404, 400/422), checked
// against the documents for all four APIs.
import { describe, expect, it } from 'vitest';
import { exerciseGenericErrors, unexpected, type DocumentName } from '@platform/contract';
import { contractRun } from './harness.js';

const run = contractRun(['property-api', 'leads-api', 'agent-platform-api', 'public-feeds-api']);

const cases: [DocumentName, 'property' | 'agents'][] = [
  ['property-api', 'property'],
  ['leads-api', 'property'],
  ['agent-platform-api', 'agents'],
  ['public-feeds-api', 'property'],
];

describe.each(cases)('%s', (document, service) => {
  it('answers without a key, with a wrong key, for unknown ids and for a wrong body as documented', async () => {
    const operations = run.recorder.index.all.filter((o) => o.document === document);
    const tenant = service === 'property' ? run.property : run.agents;
    const results = await exerciseGenericErrors(operations, { baseUrl: run.urls[service], apiKey: tenant.key, fetch: run.recorder.fetch });
    expect(results.length).toBeGreaterThan(0);
    expect(unexpected(results)).toEqual([]);
    expect(run.recorder.violations()).toEqual([]);
  });
});
