import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentPlatformApp, validAgent, validProfile, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  ctx.clock.now = new Date('2026-11-15T09:00:00Z');
});
afterAll(() => ctx.close());

async function createAgent(over: object = {}, key = ctx.tenant.key): Promise<string> {
  const res = await ctx.send('POST', '/v1/agents', { ...validAgent(), ...over }, key);
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

async function usage(agentId: string, records: [string, number, string][], key = ctx.tenant.key) {
  const body = {
    records: records.map(([client_id, quantity, occurred_at]) => ({
      client_id,
      team: 'Accounts payable',
      quantity,
      unit: 'per_1k_tokens',
      occurred_at,
    })),
  };
  expect((await ctx.send('POST', `/v1/agents/${agentId}/usage`, body, key)).statusCode).toBe(200);
}

describe('GET /v1/agents/{id}/cost-estimate', () => {
  it('estimates the expected usage and the trailing three full months, explained, in whole cents', async () => {
    const agent = await createAgent(); // 120 cents per_1k_tokens
    await usage(agent, [
      ['jul', 1000, '2026-07-31T23:59:59Z'], // before the window
      ['aug', 10.004, '2026-08-01T00:00:00Z'],
      ['sep-1', 10, '2026-09-10T00:00:00Z'],
      ['sep-2', 0.005, '2026-09-30T23:59:59Z'],
      ['nov', 1000, '2026-11-01T00:00:00Z'], // the current month
    ]);
    const other = await createAgent();
    await usage(other, [['oct', 500, '2026-10-10T00:00:00Z']]);

    const res = await ctx.send('GET', `/v1/agents/${agent}/cost-estimate?quantity=250&unit=per_1k_tokens`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      agent_id: agent,
      method_version: 'cost-2026-11',
      rate: { amount_cents: 120, unit: 'per_1k_tokens' },
      expected: { estimable: true, quantity: '250', unit: 'per_1k_tokens', monthly_cents: 30_000 },
      recorded: {
        estimable: true,
        from: '2026-08-01T00:00:00.000Z',
        to: '2026-11-01T00:00:00.000Z',
        // 10.004 × 120 = 1200.48 → 1200; 10.005 × 120 = 1200.6 → 1201; October none; mean 2401.08 / 3 → 800
        months: [
          { month: '2026-08', quantity: '10.004', cost_cents: 1200 },
          { month: '2026-09', quantity: '10.005', cost_cents: 1201 },
          { month: '2026-10', quantity: '0', cost_cents: 0 },
        ],
        mean_monthly_cents: 800,
        min_monthly_cents: 0,
        max_monthly_cents: 1201,
      },
    });
    expect(body.steps.map((s: { step: string }) => s.step)).toEqual([
      'rate',
      'unit',
      'expected',
      'recorded',
      'mean_and_range',
    ]);
    expect(body.rounding).toContain('half up');
  });

  it('says the cost cannot be estimated for another unit, and without usage', async () => {
    const agent = await createAgent();
    const body = (await ctx.send('GET', `/v1/agents/${agent}/cost-estimate?quantity=10&unit=per_hour`)).json();
    expect(body.expected).toMatchObject({
      estimable: false,
      monthly_cents: null,
      reason: expect.stringContaining('no conversion between these units is defined'),
    });
    expect(body.recorded).toMatchObject({
      estimable: false,
      mean_monthly_cents: null,
      reason: 'No usage recorded in per_1k_tokens in 2026-08, 2026-09, 2026-10.',
    });
    expect((await ctx.send('GET', `/v1/agents/${agent}/cost-estimate`)).json().expected).toBeNull();
  });

  it.each([
    ['quantity without unit', '?quantity=10', { field: 'unit', reason: 'missing' }],
    ['unit without quantity', '?unit=per_hour', { field: 'quantity', reason: 'missing' }],
    ['more than six decimals', '?quantity=1.0000001&unit=per_hour', { field: 'quantity', reason: 'invalid_format' }],
    ['a quantity of 0', '?quantity=0&unit=per_hour', { field: 'quantity', reason: 'out_of_range' }],
  ])('is 422 for %s', async (_name, query, detail) => {
    const agent = await createAgent();
    const res = await ctx.send('GET', `/v1/agents/${agent}/cost-estimate${query}`);
    expect(res.statusCode).toBe(422);
    // One detail; a schema rule's constraint and message come with it (tested in packages/http).
    expect(res.json().details).toMatchObject([detail]);
  });

  it('names the bounds of the quantity in words and as data', async () => {
    const agent = await createAgent();
    const res = await ctx.send('GET', `/v1/agents/${agent}/cost-estimate?quantity=0&unit=per_hour`);
    expect(res.json().details).toEqual([
      {
        field: 'quantity',
        reason: 'out_of_range',
        message: 'quantity must be greater than 0 and at most 999999999999.',
        constraint: { exclusive_minimum: 0, maximum: 999999999999 },
      },
    ]);
  });

  it('is 404 for another account’s agent', async () => {
    const theirs = await createAgent({}, ctx.other.key);
    expect((await ctx.send('GET', `/v1/agents/${theirs}/cost-estimate`)).statusCode).toBe(404);
  });
});

describe('GET /v1/cost-estimates?profile_id=', () => {
  it('estimates each active agent covering the profile’s capabilities and clearance, cheapest first, with the budget check', async () => {
    await ctx.db.prisma.agentDeployment.deleteMany({ where: { account_id: ctx.tenant.accountId } }); // the earlier tests' agents
    // the profile: ocr + classify:invoice, internal, 250 per_1k_tokens, budget 40,000 cents
    const profile = (await ctx.send('POST', '/v1/capability-profiles', validProfile())).json().id as string;
    const caps = ['ocr', 'classify:invoice'];
    const a = await createAgent({ name: 'A' }); // 120 × 250 = 30,000: fits
    const b = await createAgent({
      name: 'B',
      capabilities: [...caps, 'translate'],
      data_classification: 'confidential',
      chargeback_rate: { amount_cents: 100, unit: 'per_1k_tokens' },
    }); // 25,000
    const c = await createAgent({ name: 'C', chargeback_rate: { amount_cents: 200, unit: 'per_1k_tokens' } }); // 50,000: over budget
    const d = await createAgent({ name: 'D', chargeback_rate: { amount_cents: 3, unit: 'per_request' } }); // another unit
    await createAgent({ name: 'missing a capability', capabilities: ['ocr'] });
    await createAgent({ name: 'public only', data_classification: 'public' });
    const retired = await createAgent({ name: 'retired' });
    await ctx.send('POST', `/v1/agents/${retired}/retire`);
    await createAgent({ name: 'theirs' }, ctx.other.key);

    const res = await ctx.send('GET', `/v1/cost-estimates?profile_id=${profile}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      profile_id: profile,
      method_version: 'cost-2026-11',
      budget_monthly_cents: 40_000,
      expected_usage: { quantity: 250, unit: 'per_1k_tokens' },
    });
    expect(
      body.agents.map(
        (x: {
          agent_id: string;
          fits_budget: boolean | null;
          estimate: { expected: { monthly_cents: number | null } };
        }) => [x.agent_id, x.estimate.expected.monthly_cents, x.fits_budget],
      ),
    ).toEqual([
      [b, 25_000, true],
      [a, 30_000, true],
      [c, 50_000, false],
      [d, null, null],
    ]);
  });

  it('is 404 for another account’s profile and 422 without profile_id', async () => {
    const theirs = (await ctx.send('POST', '/v1/capability-profiles', validProfile(), ctx.other.key)).json()
      .id as string;
    expect((await ctx.send('GET', `/v1/cost-estimates?profile_id=${theirs}`)).statusCode).toBe(404);
    expect((await ctx.send('GET', '/v1/cost-estimates')).statusCode).toBe(422);
  });
});
