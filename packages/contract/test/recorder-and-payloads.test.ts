// The recorder's coverage and the webhook payload check must be able to fail.
import { describe, expect, it } from 'vitest';
import { checkWebhookPayloads, ContractRecorder } from '../src/index.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('ContractRecorder', () => {
  it('counts an operation as exercised only after a successful response, and names the rest', async () => {
    const recorder = new ContractRecorder(['leads-api']);
    await recorder.observe('GET', '/leads/v1/anfragen/anf_1', json(404, { code: 'nicht_gefunden', message: 'x' }));
    const before = recorder.unexercised('leads-api').map((o) => o.operationId);
    expect(before).toContain('anfrageAbrufen');
    expect(before).toContain('anfragenAuflisten');
    await recorder.observe(
      'GET',
      '/leads/v1/anfragen',
      json(200, { daten: [], seite: { naechster_cursor: null, hat_weitere: false } }),
    );
    const left = recorder.unexercised('leads-api').map((o) => o.operationId);
    expect(left).not.toContain('anfragenAuflisten');
    expect(left).toHaveLength(before.length - 1);
    expect(recorder.violations()).toEqual([]);
  });

  it('reports a response off contract and a request to a path the documents do not have', async () => {
    const recorder = new ContractRecorder(['leads-api']);
    await recorder.observe('GET', '/leads/v1/anfragen', json(200, { daten: [] }));
    await recorder.observe('GET', '/leads/v1/nirgends', json(200, {}));
    expect(recorder.violations()).toEqual([
      "GET /leads/v1/anfragen → 200 (anfragenAuflisten): body / must have required property 'seite'",
      'GET /leads/v1/nirgends → 200 (undocumented): no operation in the documents for GET /leads/v1/nirgends',
    ]);
  });
});

describe('checkWebhookPayloads', () => {
  const recorder = new ContractRecorder(['property-api']);
  const types = [
    {
      type: 'property.created',
      data_schema: { type: 'object', required: ['property_id'], properties: { property_id: { type: 'string' } } },
    },
  ];
  const body = (event: object) => Buffer.from(JSON.stringify(event));

  it('accepts a delivery whose envelope and data match, and counts it by type', () => {
    const result = checkWebhookPayloads(recorder.validator, types, [
      body({
        id: 'evt_1',
        type: 'property.created',
        created_at: '2026-11-23T10:00:00.000Z',
        data: { property_id: 'prop_1' },
      }),
    ]);
    expect(result).toEqual({ checked: { 'property.created': 1 }, problems: [] });
  });

  it('names a data field off schema, a broken envelope and an unlisted type', () => {
    const result = checkWebhookPayloads(recorder.validator, types, [
      body({ id: 'evt_2', type: 'property.created', created_at: '2026-11-23T10:00:00.000Z', data: { property_id: 7 } }),
      body({ id: 'evt_3', type: 'property.created', created_at: 'yesterday', data: { property_id: 'p' } }),
      body({ id: 'evt_4', type: 'property.exploded', created_at: '2026-11-23T10:00:00.000Z', data: {} }),
    ]);
    expect(result.problems).toEqual([
      'property.created evt_2: data /property_id must be string',
      'property.created evt_3: envelope /created_at must match format "date-time"',
      'property.exploded evt_4: the type is not listed by GET /v1/event-types',
    ]);
  });
});
