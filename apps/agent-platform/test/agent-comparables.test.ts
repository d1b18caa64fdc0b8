import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
});
afterAll(() => ctx.close());

async function createAgent(over: object = {}, key = ctx.tenant.key): Promise<string> {
  const res = await ctx.send('POST', '/v1/agents', { ...validAgent(), ...over }, key);
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const rate = (amount_cents: number, unit = 'per_1k_tokens') => ({ chargeback_rate: { amount_cents, unit } });

describe('GET /v1/agents/{id}/comparables', () => {
  it('lists other active agents of the account by similarity, then normalised rate, each with the reason', async () => {
    const me = await createAgent({ name: 'me', capabilities: ['ocr', 'classify', 'translate'], ...rate(120) });
    const a = await createAgent({
      name: 'a',
      capabilities: ['ocr', 'classify'],
      data_classification: 'confidential',
      ...rate(150),
    });
    const b = await createAgent({
      name: 'b',
      capabilities: ['ocr', 'classify', 'translate', 'summarise'],
      ...rate(100),
    });
    const c = await createAgent({ name: 'c', capabilities: ['ocr', 'classify'], ...rate(90) });
    const d = await createAgent({
      name: 'd',
      capabilities: ['classify', 'ocr'],
      data_classification: 'restricted',
      ...rate(5, 'per_request'),
    });
    await createAgent({ name: 'lower clearance', capabilities: ['ocr'], data_classification: 'public' });
    await createAgent({ name: 'nothing shared', capabilities: ['speech'] });
    const retired = await createAgent({ name: 'retired', capabilities: ['ocr', 'classify', 'translate'] });
    await ctx.send('POST', `/v1/agents/${retired}/retire`);
    await createAgent({ name: 'theirs', capabilities: ['ocr', 'classify', 'translate'] }, ctx.other.key);

    const res = await ctx.send('GET', `/v1/agents/${me}/comparables`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      agent_id: me,
      method_version: 'comparables-2026-11',
      data_classification: 'internal',
      rate: { amount_cents: 120, unit: 'per_1k_tokens' },
    });
    expect(
      body.data.map((x: { agent_id: string; similarity: number; normalised: object | null }) => [
        x.agent_id,
        x.similarity,
        x.normalised,
      ]),
    ).toEqual([
      [b, 0.75, { unit: 'per_1k_tokens', amount_cents: 100, difference_cents: -20 }],
      [c, 0.6667, { unit: 'per_1k_tokens', amount_cents: 90, difference_cents: -30 }],
      [a, 0.6667, { unit: 'per_1k_tokens', amount_cents: 150, difference_cents: 30 }],
      [d, 0.6667, null],
    ]);
    expect(body.data[3].reason).toContain('not normalised, no conversion between these units is defined');
    expect(body.data[0].reason).toBe(
      'Shares 3 of 4 capabilities (classify, ocr, translate); cleared for internal (this agent: internal); charges 100 cents per_1k_tokens, 20 cents less than this agent.',
    );
  });

  it('is an empty list for an agent without capabilities', async () => {
    const lonely = await createAgent({ capabilities: [] });
    expect((await ctx.send('GET', `/v1/agents/${lonely}/comparables`)).json().data).toEqual([]);
  });

  it('is 404 for another account’s agent', async () => {
    const theirs = await createAgent({}, ctx.other.key);
    expect((await ctx.send('GET', `/v1/agents/${theirs}/comparables`)).statusCode).toBe(404);
  });
});
