import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentPlatformApp, validProfile, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
});
afterAll(() => ctx.close());

/** A 422 with these details, compared on what is given (a detail's constraint and message come with it). */
const invalid = (details: object[]) => ({
  code: 'validation_failed',
  message: expect.any(String),
  details: details.map((detail) => expect.objectContaining(detail)),
});

async function create(input: object = validProfile(), key = ctx.tenant.key) {
  const res = await ctx.send('POST', '/v1/capability-profiles', input, key);
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('POST /v1/capability-profiles', () => {
  it('saves a team’s needs and returns them whole with 201', async () => {
    ctx.clock.now = new Date('2026-11-22T09:00:00Z');
    const body = await create();
    expect(body).toEqual({
      id: expect.stringMatching(/^cap_[0-9a-z]{26}$/),
      ...validProfile(),
      created_at: '2026-11-22T09:00:00.000Z',
      updated_at: '2026-11-22T09:00:00.000Z',
    });
    expect((await ctx.send('GET', `/v1/capability-profiles/${body.id}`)).json()).toEqual(body);
  });

  it('defaults required_capabilities to []', async () => {
    const { required_capabilities: _r, ...input } = validProfile();
    expect((await create(input)).required_capabilities).toEqual([]);
  });

  it.each([
    ['no budget', { budget: undefined }, { field: 'budget', reason: 'missing' }],
    ['no data classification', { data_classification: undefined }, { field: 'data_classification', reason: 'missing' }],
    [
      'an unknown data classification',
      { data_classification: 'secret' },
      { field: 'data_classification', reason: 'not_allowed' },
    ],
    [
      'a capability with spaces',
      { required_capabilities: ['Read PDF'] },
      { field: 'required_capabilities.0', reason: 'invalid_format' },
    ],
    [
      'a repeated capability',
      { required_capabilities: ['ocr', 'ocr'] },
      { field: 'required_capabilities', reason: 'invalid_format' },
    ],
    [
      'a negative budget',
      { budget: { monthly_limit_cents: -1, expected_usage: { quantity: 1, unit: 'per_month' } } },
      { field: 'budget.monthly_limit_cents', reason: 'out_of_range' },
    ],
    [
      'a usage of 0',
      { budget: { monthly_limit_cents: 1, expected_usage: { quantity: 0, unit: 'per_month' } } },
      { field: 'budget.expected_usage.quantity', reason: 'out_of_range' },
    ],
    [
      'an unknown usage unit',
      { budget: { monthly_limit_cents: 1, expected_usage: { quantity: 1, unit: 'per_day' } } },
      { field: 'budget.expected_usage.unit', reason: 'not_allowed' },
    ],
    [
      'a budget without usage',
      { budget: { monthly_limit_cents: 1 } },
      { field: 'budget.expected_usage', reason: 'missing' },
    ],
    ['a team of 121 characters', { team: 't'.repeat(121) }, { field: 'team', reason: 'too_long' }],
    ['an id', { id: 'cap_mine' }, { field: 'id', reason: 'not_allowed' }],
    ['an unknown field', { owner: 'x' }, { field: 'owner', reason: 'unknown_field' }],
  ])('refuses %s with 422', async (_name, change, detail) => {
    const res = await ctx.send('POST', '/v1/capability-profiles', { ...validProfile(), ...change });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(invalid([detail]));
  });
});

describe('GET /v1/capability-profiles', () => {
  it('lists newest first, filters by team and walks the cursor', async () => {
    for (let i = 0; i < 3; i++) {
      ctx.clock.now = new Date(ctx.clock.now.getTime() + 1000);
      await create({ ...validProfile(), team: 'Legal', name: `Legal ${i}` });
    }
    const names: string[] = [];
    let url = '/v1/capability-profiles?team=Legal&limit=2';
    for (;;) {
      const res = await ctx.send('GET', url);
      expect(res.statusCode).toBe(200);
      names.push(...res.json().data.map((p: { team: string; name: string }) => (expect(p.team).toBe('Legal'), p.name)));
      if (!res.json().page.has_more) break;
      url = `/v1/capability-profiles?team=Legal&limit=2&cursor=${encodeURIComponent(res.json().page.next_cursor)}`;
    }
    expect(names).toEqual(['Legal 2', 'Legal 1', 'Legal 0']);
  });

  it('never shows another account’s profiles', async () => {
    const theirs = await create({ ...validProfile(), team: 'Their team' }, ctx.other.key);
    const mine = (await ctx.send('GET', '/v1/capability-profiles?limit=100'))
      .json()
      .data.map((p: { id: string }) => p.id);
    expect(mine).not.toContain(theirs.id);
    expect((await ctx.send('GET', `/v1/capability-profiles/${theirs.id}`)).statusCode).toBe(404);
  });
});

describe('PATCH /v1/capability-profiles/{profileId}', () => {
  it('merges the budget field by field and replaces the capabilities', async () => {
    const { id } = await create();
    const res = await ctx.send('PATCH', `/v1/capability-profiles/${id}`, {
      budget: { monthly_limit_cents: 10_000 },
      required_capabilities: ['ocr'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      required_capabilities: ['ocr'],
      budget: { monthly_limit_cents: 10_000, expected_usage: { quantity: 250, unit: 'per_1k_tokens' } },
    });
    expect(
      (await ctx.send('PATCH', `/v1/capability-profiles/${id}`, { required_capabilities: null })).json()
        .required_capabilities,
    ).toEqual([]);
  });

  it('does not clear a required field', async () => {
    const { id } = await create();
    const res = await ctx.send('PATCH', `/v1/capability-profiles/${id}`, { team: null });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(invalid([{ field: 'team', reason: 'missing', constraint: { type: 'string' } }]));
  });

  it('keeps updated_at when nothing changes', async () => {
    const before = await create();
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 60_000);
    const res = await ctx.send('PATCH', `/v1/capability-profiles/${before.id}`, { name: before.name });
    expect(res.json()).toEqual(before);
  });
});
