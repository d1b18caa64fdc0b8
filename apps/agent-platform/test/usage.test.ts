import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  ctx.clock.now = new Date('2026-11-20T12:00:00Z');
});
afterAll(() => ctx.close());

/** A 422 with these details, compared on what is given (a detail's constraint and message come with it). */
const invalid = (details: object[]) => ({
  code: 'validation_failed',
  message: expect.any(String),
  details: details.map((detail) => expect.objectContaining(detail)),
});

async function createAgent(key = ctx.tenant.key, input: object = validAgent()): Promise<string> {
  const res = await ctx.send('POST', '/v1/agents', input, key);
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const record = (n: number, over: object = {}) => ({
  client_id: `rec-${n}`,
  team: 'Accounts payable',
  quantity: 1.5,
  unit: 'per_1k_tokens',
  occurred_at: '2026-11-20T10:00:00Z',
  ...over,
});

const post = (agentId: string, records: object[], key = ctx.tenant.key) =>
  ctx.send('POST', `/v1/agents/${agentId}/usage`, { records }, key);

const stored = (agentId: string) =>
  ctx.db.prisma.usageRecord.findMany({
    where: { agent_id: agentId },
    orderBy: { client_id: 'asc' },
    select: { client_id: true, team: true, quantity: true, unit: true, occurred_at: true, account_id: true },
  });

describe('POST /v1/agents/{id}/usage', () => {
  it('stores a batch in the agent’s unit and answers {accepted, duplicates}', async () => {
    const agent = await createAgent();
    const res = await post(agent, [
      record(1),
      record(2, { quantity: 0.000001, team: 'Treasury', occurred_at: '2026-11-20T11:00:00+01:00' }),
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 2, duplicates: 0 });
    const rows = await stored(agent);
    expect(
      rows.map((r) => ({ ...r, quantity: r.quantity.toString(), occurred_at: r.occurred_at.toISOString() })),
    ).toEqual([
      {
        client_id: 'rec-1',
        team: 'Accounts payable',
        quantity: '1.5',
        unit: 'per_1k_tokens',
        occurred_at: '2026-11-20T10:00:00.000Z',
        account_id: ctx.tenant.accountId,
      },
      {
        client_id: 'rec-2',
        team: 'Treasury',
        quantity: '0.000001',
        unit: 'per_1k_tokens',
        occurred_at: '2026-11-20T10:00:00.000Z',
        account_id: ctx.tenant.accountId,
      },
    ]);
  });

  it('makes a resent record a no-op, also when repeated within one batch', async () => {
    const agent = await createAgent();
    expect((await post(agent, [record(1), record(2)])).json()).toEqual({ accepted: 2, duplicates: 0 });
    expect((await post(agent, [record(1, { quantity: 99 }), record(2), record(3), record(3)])).json()).toEqual({
      accepted: 1,
      duplicates: 3,
    });
    const rows = await stored(agent);
    expect(rows.map((r) => [r.client_id, r.quantity.toString()])).toEqual([
      ['rec-1', '1.5'],
      ['rec-2', '1.5'],
      ['rec-3', '1.5'],
    ]);
  });

  it('takes 1,000 records in one batch and refuses 1,001', async () => {
    const agent = await createAgent();
    const batch = Array.from({ length: 1000 }, (_, i) => record(i));
    expect((await post(agent, batch)).json()).toEqual({ accepted: 1000, duplicates: 0 });
    expect((await post(agent, batch)).json()).toEqual({ accepted: 0, duplicates: 1000 });
    const res = await post(agent, [...batch, record(1000)]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(invalid([{ field: 'records', reason: 'too_long' }]));
    expect(await ctx.db.prisma.usageRecord.count({ where: { agent_id: agent } })).toBe(1000);
  });

  it('reports every invalid record by its index and stores nothing', async () => {
    const agent = await createAgent();
    const res = await post(agent, [
      record(0),
      record(1),
      record(2),
      record(3, { quantity: 0 }),
      record(4, { occurred_at: 'yesterday' }),
      record(5, { unit: 'per_week' }),
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(
      invalid([
        { field: 'records.3.quantity', reason: 'out_of_range' },
        { field: 'records.4.occurred_at', reason: 'invalid_format' },
        { field: 'records.5.unit', reason: 'not_allowed' },
      ]),
    );
    expect((await post(agent, [])).json()).toEqual(invalid([{ field: 'records', reason: 'out_of_range' }]));
    expect(await ctx.db.prisma.usageRecord.count({ where: { agent_id: agent } })).toBe(0);
  });

  it('refuses more than six decimals, another unit than the agent’s and a time beyond 5 minutes ahead', async () => {
    const agent = await createAgent();
    const res = await post(agent, [
      record(0, { quantity: 1.0000001 }),
      record(1, { unit: 'per_request' }),
      record(2, { occurred_at: '2026-11-20T12:05:01Z' }),
      record(3, { occurred_at: '2026-11-20T12:05:00Z' }),
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(
      invalid([
        { field: 'records.0.quantity', reason: 'invalid_format' },
        { field: 'records.1.unit', reason: 'not_allowed' },
        { field: 'records.2.occurred_at', reason: 'out_of_range' },
      ]),
    );
    expect(await ctx.db.prisma.usageRecord.count({ where: { agent_id: agent } })).toBe(0);
  });

  it('is 409 for a retired agent', async () => {
    const agent = await createAgent();
    expect((await ctx.send('POST', `/v1/agents/${agent}/retire`)).statusCode).toBe(200);
    const res = await post(agent, [record(1)]);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict');
  });

  it('is 404 for another account’s agent and stores nothing there', async () => {
    const theirs = await createAgent(ctx.other.key);
    const res = await post(theirs, [record(1)]);
    expect(res.statusCode).toBe(404);
    expect(await ctx.db.prisma.usageRecord.count({ where: { agent_id: theirs } })).toBe(0);
    // the same client id is independent per agent
    expect((await post(theirs, [record(1)], ctx.other.key)).json()).toEqual({ accepted: 1, duplicates: 0 });
  });
});
