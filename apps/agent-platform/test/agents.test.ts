import { whileHeld, type TestApp } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
});
afterAll(() => ctx.close());

const send = (...args: Parameters<TestApp['send']>) => ctx.send(...args);

const tick = () => {
  ctx.clock.now = new Date(ctx.clock.now.getTime() + 1000);
  return ctx.clock.now.toISOString();
};

async function create(input: object = validAgent(), key = ctx.tenant.key) {
  const res = await send('POST', '/v1/agents', input, key);
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** A 422 with these details, compared on what is given (a detail's constraint and message come with it). */
const invalid = (details: object[]) => ({
  code: 'validation_failed',
  message: expect.any(String),
  details: details.map((detail) => expect.objectContaining(detail)),
});
const NOT_FOUND = { code: 'not_found', message: 'No agent with this id.' };

describe('POST /v1/agents', () => {
  it('creates an active agent and returns it whole with 201', async () => {
    const at = tick();
    const res = await send('POST', '/v1/agents', { ...validAgent(), description: 'Sorts incoming invoices.' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^agt_[0-9a-z]{26}$/),
      status: 'active',
      name: 'Invoice triage',
      description: 'Sorts incoming invoices.',
      owning_team: 'Finance automation',
      capabilities: ['ocr', 'classify:invoice'],
      chargeback_rate: { amount_cents: 120, unit: 'per_1k_tokens' },
      data_classification: 'internal',
      artifact_count: 0,
      created_at: at,
      updated_at: at,
      retired_at: null,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await send('GET', `/v1/agents/${body.id}`)).json()).toEqual(body);
  });

  it('answers unset optional fields as null and capabilities as []', async () => {
    const { capabilities: _c, ...input } = validAgent();
    const body = await create(input);
    expect(body).toMatchObject({ description: null, capabilities: [], retired_at: null });
  });

  it.each([
    ['a name of 121 characters', { name: 'x'.repeat(121) }, { field: 'name', reason: 'too_long' }],
    ['an empty name', { name: '' }, { field: 'name', reason: 'out_of_range' }],
    ['a name given as a number', { name: 42 }, { field: 'name', reason: 'invalid_type' }],
    [
      'an owning team of 121 characters',
      { owning_team: 't'.repeat(121) },
      { field: 'owning_team', reason: 'too_long' },
    ],
    [
      'a description of 5001 characters',
      { description: 'd'.repeat(5001) },
      { field: 'description', reason: 'too_long' },
    ],
    ['capabilities given as a string', { capabilities: 'ocr' }, { field: 'capabilities', reason: 'invalid_type' }],
    [
      'a capability with capitals and spaces',
      { capabilities: ['ocr', 'Read PDF'] },
      { field: 'capabilities.1', reason: 'invalid_format' },
    ],
    [
      'a capability of 65 characters',
      { capabilities: ['c'.repeat(65)] },
      { field: 'capabilities.0', reason: 'invalid_format' },
    ],
    ['a repeated capability', { capabilities: ['ocr', 'ocr'] }, { field: 'capabilities', reason: 'invalid_format' }],
    [
      '51 capabilities',
      { capabilities: Array.from({ length: 51 }, (_v, i) => `cap${i}`) },
      { field: 'capabilities', reason: 'too_long' },
    ],
    [
      'an unknown data classification',
      { data_classification: 'secret' },
      { field: 'data_classification', reason: 'not_allowed' },
    ],
    [
      'an amount given as text',
      { chargeback_rate: { amount_cents: '120', unit: 'per_hour' } },
      { field: 'chargeback_rate.amount_cents', reason: 'invalid_type' },
    ],
    [
      'a fractional amount',
      { chargeback_rate: { amount_cents: 1.5, unit: 'per_hour' } },
      { field: 'chargeback_rate.amount_cents', reason: 'invalid_type' },
    ],
    [
      'a negative amount',
      { chargeback_rate: { amount_cents: -1, unit: 'per_hour' } },
      { field: 'chargeback_rate.amount_cents', reason: 'out_of_range' },
    ],
    [
      'an amount above 2^31-1',
      { chargeback_rate: { amount_cents: 2_147_483_648, unit: 'per_hour' } },
      { field: 'chargeback_rate.amount_cents', reason: 'out_of_range' },
    ],
    [
      'an unknown unit',
      { chargeback_rate: { amount_cents: 1, unit: 'per_day' } },
      { field: 'chargeback_rate.unit', reason: 'not_allowed' },
    ],
    [
      'a chargeback rate given as a number',
      { chargeback_rate: 120 },
      { field: 'chargeback_rate', reason: 'invalid_type' },
    ],
    ['an unknown field', { model: 'gpt' }, { field: 'model', reason: 'unknown_field' }],
    [
      'an unknown nested field',
      { chargeback_rate: { amount_cents: 1, unit: 'per_hour', currency: 'EUR' } },
      { field: 'chargeback_rate.currency', reason: 'unknown_field' },
    ],
    ['the read-only status', { status: 'retired' }, { field: 'status', reason: 'not_allowed' }],
    ['the read-only id', { id: 'agt_mine' }, { field: 'id', reason: 'not_allowed' }],
    [
      'the read-only retired_at',
      { retired_at: '2026-01-01T00:00:00Z' },
      { field: 'retired_at', reason: 'not_allowed' },
    ],
  ])('refuses %s with 422 and one detail', async (_name, change, detail) => {
    const res = await send('POST', '/v1/agents', { ...validAgent(), ...change });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(invalid([detail]));
  });

  it('accepts the bounds: 120-character name, amount 0 and 2^31-1, 50 capabilities', async () => {
    const capabilities = Array.from({ length: 50 }, (_v, i) => `cap-${i}.x:y_z`);
    const low = await create({
      ...validAgent(),
      name: 'n'.repeat(120),
      capabilities,
      chargeback_rate: { amount_cents: 0, unit: 'per_request' },
    });
    expect(low).toMatchObject({
      name: 'n'.repeat(120),
      capabilities,
      chargeback_rate: { amount_cents: 0, unit: 'per_request' },
    });
    const high = await create({ ...validAgent(), chargeback_rate: { amount_cents: 2_147_483_647, unit: 'per_month' } });
    expect(high.chargeback_rate).toEqual({ amount_cents: 2_147_483_647, unit: 'per_month' });
  });

  it('reports every missing required field at once', async () => {
    const res = await send('POST', '/v1/agents', {});
    expect(res.statusCode).toBe(422);
    const { details } = res.json();
    expect(details).toHaveLength(3);
    expect(details).toEqual(
      expect.arrayContaining([
        { field: 'name', reason: 'missing' },
        { field: 'owning_team', reason: 'missing' },
        { field: 'chargeback_rate', reason: 'missing' },
      ]),
    );
    const nested = await send('POST', '/v1/agents', { ...validAgent(), chargeback_rate: {} });
    expect(nested.json()).toEqual(
      invalid([
        { field: 'chargeback_rate.amount_cents', reason: 'missing' },
        { field: 'chargeback_rate.unit', reason: 'missing' },
      ]),
    );
  });

  it('answers an empty JSON body with 422 (a body is required)', async () => {
    const headers = { apikey: ctx.tenant.key, 'content-type': 'application/json' };
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/agents', headers, payload: '' });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('validation_failed');
  });

  it('answers malformed JSON with 400 invalid_json and a wrong content type with 415', async () => {
    const headers = { apikey: ctx.tenant.key, 'content-type': 'application/json' };
    const bad = await ctx.app.inject({ method: 'POST', url: '/v1/agents', headers, payload: '{"name": "x",' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 'invalid_json', message: expect.any(String) });
    const text = await ctx.app.inject({
      method: 'POST',
      url: '/v1/agents',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ code: 'unsupported_media_type', message: expect.any(String) });
  });
});

describe('GET /v1/agents/{agentId}', () => {
  it('answers an unknown id with 404 not_found', async () => {
    const res = await send('GET', '/v1/agents/agt_doesnotexist');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
  });

  it("answers another account's agent exactly like a missing one", async () => {
    const theirs = await create(validAgent(), ctx.other.key);
    const res = await send('GET', `/v1/agents/${theirs.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
    expect((await send('GET', `/v1/agents/${theirs.id}`, undefined, ctx.other.key)).statusCode).toBe(200);
  });
});

describe('PATCH /v1/agents/{agentId}', () => {
  const full = () => create({ ...validAgent(), description: 'Old description' });

  it('changes what is sent, leaves absent fields unchanged and returns the whole agent', async () => {
    const before = await full();
    const at = tick();
    const res = await send('PATCH', `/v1/agents/${before.id}`, { name: 'Invoice triage v2', capabilities: ['ocr'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...before, name: 'Invoice triage v2', capabilities: ['ocr'], updated_at: at });
    expect((await send('GET', `/v1/agents/${before.id}`)).json()).toEqual(res.json());
  });

  it('clears optional fields sent as null', async () => {
    const before = await full();
    const res = await send('PATCH', `/v1/agents/${before.id}`, { description: null, capabilities: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...before, description: null, capabilities: [], updated_at: expect.any(String) });
  });

  it('merges chargeback_rate field by field', async () => {
    const before = await full();
    const unit = await send('PATCH', `/v1/agents/${before.id}`, { chargeback_rate: { unit: 'per_hour' } });
    expect(unit.json().chargeback_rate).toEqual({ amount_cents: 120, unit: 'per_hour' });
    const amount = await send('PATCH', `/v1/agents/${before.id}`, { chargeback_rate: { amount_cents: 999 } });
    expect(amount.json().chargeback_rate).toEqual({ amount_cents: 999, unit: 'per_hour' });
    expect(amount.json()).toMatchObject({
      name: before.name,
      description: before.description,
      capabilities: before.capabilities,
    });
  });

  it('lets required fields change but not be cleared (422 missing, with the type to send)', async () => {
    const before = await full();
    for (const [body, field, type] of [
      [{ name: null }, 'name', 'string'],
      [{ owning_team: null }, 'owning_team', 'string'],
      [{ chargeback_rate: null }, 'chargeback_rate', 'object'],
      [{ chargeback_rate: { unit: null } }, 'chargeback_rate.unit', 'string'],
      [{ chargeback_rate: { amount_cents: null } }, 'chargeback_rate.amount_cents', 'integer'],
    ] as const) {
      const res = await send('PATCH', `/v1/agents/${before.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toEqual(invalid([{ field, reason: 'missing', constraint: { type } }]));
    }
    expect((await send('GET', `/v1/agents/${before.id}`)).json()).toEqual(before);
  });

  it('applies the constraints to what is sent, reporting every problem', async () => {
    const before = await full();
    const res = await send('PATCH', `/v1/agents/${before.id}`, {
      name: 'n'.repeat(121),
      chargeback_rate: { unit: 'per_day', extra: 1 },
      capabilities: ['BAD'],
      status: 'retired',
      id: 'agt_other',
      owner: 'me',
    });
    expect(res.statusCode).toBe(422);
    const { details } = res.json();
    expect(details).toHaveLength(7);
    expect(details).toEqual(
      expect.arrayContaining(
        [
          { field: 'name', reason: 'too_long', constraint: { min_length: 1, max_length: 120 } },
          {
            field: 'chargeback_rate.unit',
            reason: 'not_allowed',
            constraint: { allowed: ['per_request', 'per_1k_tokens', 'per_hour', 'per_month'] },
          },
          { field: 'chargeback_rate.extra', reason: 'unknown_field' },
          {
            field: 'capabilities.0',
            reason: 'invalid_format',
            constraint: { pattern: '^[a-z0-9][a-z0-9_.:-]{0,63}$' },
          },
          { field: 'status', reason: 'not_allowed', constraint: { read_only: true } },
          { field: 'id', reason: 'not_allowed', constraint: { read_only: true } },
          { field: 'owner', reason: 'unknown_field' },
        ].map((detail) => expect.objectContaining(detail)),
      ),
    );
    expect((await send('GET', `/v1/agents/${before.id}`)).json()).toEqual(before);
  });

  it('answers an empty patch with the unchanged agent', async () => {
    const before = await full();
    tick();
    const res = await send('PATCH', `/v1/agents/${before.id}`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(before);
  });

  it('keeps both changes when two patches wait on the same row', async () => {
    const before = await full();
    // Hold the row so that both patches start before either has written; without the row lock
    // both would merge into the same old document and the second write would undo the first.
    const { result: patches, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRaw`SELECT id FROM agent_deployments WHERE id = ${before.id} FOR UPDATE`,
      () =>
        Promise.all([
          send('PATCH', `/v1/agents/${before.id}`, { description: 'New description' }),
          send('PATCH', `/v1/agents/${before.id}`, { chargeback_rate: { amount_cents: 7 } }),
        ]),
      2,
    );
    expect(waited).toBe(2);
    expect(patches.map((res) => res.statusCode)).toEqual([200, 200]);
    expect((await send('GET', `/v1/agents/${before.id}`)).json()).toMatchObject({
      description: 'New description',
      chargeback_rate: { amount_cents: 7, unit: 'per_1k_tokens' },
    });
  });

  it('refuses to change a retired agent with 409 conflict', async () => {
    const before = await full();
    const retired = (await send('POST', `/v1/agents/${before.id}/retire`)).json();
    const res = await send('PATCH', `/v1/agents/${before.id}`, { name: 'Back again' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'conflict', message: expect.any(String) });
    expect((await send('GET', `/v1/agents/${before.id}`)).json()).toEqual(retired);
  });

  it("answers another account's agent exactly like a missing one and leaves it unchanged", async () => {
    const theirs = await create(validAgent(), ctx.other.key);
    const res = await send('PATCH', `/v1/agents/${theirs.id}`, { name: 'mine now' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
    expect((await send('PATCH', '/v1/agents/agt_doesnotexist', { name: 'x' })).json()).toEqual(NOT_FOUND);
    expect((await send('GET', `/v1/agents/${theirs.id}`, undefined, ctx.other.key)).json()).toEqual(theirs);
  });
});

describe('POST /v1/agents/{agentId}/retire', () => {
  it('retires an active agent and sets retired_at', async () => {
    const before = await create();
    const at = tick();
    const res = await send('POST', `/v1/agents/${before.id}/retire`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...before, status: 'retired', updated_at: at, retired_at: at });
    expect((await send('GET', `/v1/agents/${before.id}`)).json()).toEqual(res.json());
  });

  it('accepts an empty JSON body, as clients that always send Content-Type do', async () => {
    const { id } = await create();
    const headers = { apikey: ctx.tenant.key, 'content-type': 'application/json' };
    const res = await ctx.app.inject({ method: 'POST', url: `/v1/agents/${id}/retire`, headers, payload: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('retired');
  });

  it('refuses to retire a retired agent with 409 invalid_transition and keeps retired_at', async () => {
    const { id } = await create();
    const retired = (await send('POST', `/v1/agents/${id}/retire`)).json();
    tick();
    const res = await send('POST', `/v1/agents/${id}/retire`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'invalid_transition',
      message: expect.stringContaining('retired'),
      details: [{ field: 'status', reason: 'not_allowed' }],
    });
    expect((await send('GET', `/v1/agents/${id}`)).json()).toEqual(retired);
  });

  it("answers another account's agent exactly like a missing one and leaves it active", async () => {
    const theirs = await create(validAgent(), ctx.other.key);
    const res = await send('POST', `/v1/agents/${theirs.id}/retire`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
    expect((await send('POST', '/v1/agents/agt_doesnotexist/retire')).json()).toEqual(NOT_FOUND);
    expect((await send('GET', `/v1/agents/${theirs.id}`, undefined, ctx.other.key)).json().status).toBe('active');
  });
});
