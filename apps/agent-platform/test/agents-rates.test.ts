import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  ctx.clock.now = new Date('2026-11-01T08:00:00Z');
});
afterAll(() => ctx.close());

const at = (iso: string) => {
  ctx.clock.now = new Date(iso);
};
const rates = (agentId: string) =>
  ctx.db.prisma.agentRate.findMany({
    where: { agent_id: agentId },
    orderBy: { valid_from: 'asc' },
    select: { account_id: true, amount_cents: true, unit: true, valid_from: true, valid_to: true },
  });

async function create(): Promise<string> {
  const res = await ctx.send('POST', '/v1/agents', validAgent());
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const patch = (id: string, body: object) => ctx.send('PATCH', `/v1/agents/${id}`, body);

describe('agent rate history', () => {
  it('opens a rate valid from the agent’s creation', async () => {
    at('2026-11-01T08:00:00Z');
    const id = await create();
    expect(await rates(id)).toEqual([
      {
        account_id: ctx.tenant.accountId,
        amount_cents: 120,
        unit: 'per_1k_tokens',
        valid_from: new Date('2026-11-01T08:00:00Z'),
        valid_to: null,
      },
    ]);
  });

  it('keeps two changes as three rows with contiguous validity', async () => {
    at('2026-11-01T08:00:00Z');
    const id = await create();
    at('2026-11-05T10:00:00Z');
    expect((await patch(id, { chargeback_rate: { amount_cents: 150 } })).statusCode).toBe(200);
    at('2026-11-09T12:30:00Z');
    expect((await patch(id, { chargeback_rate: { unit: 'per_hour' } })).statusCode).toBe(200);
    expect((await rates(id)).map(({ account_id: _a, ...r }) => r)).toEqual([
      {
        amount_cents: 120,
        unit: 'per_1k_tokens',
        valid_from: new Date('2026-11-01T08:00:00Z'),
        valid_to: new Date('2026-11-05T10:00:00Z'),
      },
      {
        amount_cents: 150,
        unit: 'per_1k_tokens',
        valid_from: new Date('2026-11-05T10:00:00Z'),
        valid_to: new Date('2026-11-09T12:30:00Z'),
      },
      { amount_cents: 150, unit: 'per_hour', valid_from: new Date('2026-11-09T12:30:00Z'), valid_to: null },
    ]);
  });

  it('opens no new rate when the PATCH leaves the rate as it is or changes other fields', async () => {
    at('2026-11-01T08:00:00Z');
    const id = await create();
    at('2026-11-02T08:00:00Z');
    expect((await patch(id, { chargeback_rate: { amount_cents: 120, unit: 'per_1k_tokens' } })).statusCode).toBe(200);
    expect((await patch(id, { name: 'Renamed' })).statusCode).toBe(200);
    expect(await rates(id)).toHaveLength(1);
  });

  it('opens no rate when the PATCH is refused', async () => {
    at('2026-11-01T08:00:00Z');
    const id = await create();
    expect((await patch(id, { chargeback_rate: { amount_cents: -1 } })).statusCode).toBe(422);
    expect((await ctx.send('POST', `/v1/agents/${id}/retire`)).statusCode).toBe(200);
    expect((await patch(id, { chargeback_rate: { amount_cents: 200 } })).statusCode).toBe(409);
    expect(await rates(id)).toHaveLength(1);
  });

  it('keeps one open rate when two changes of one agent race (the row lock orders them)', async () => {
    at('2026-11-01T08:00:00Z');
    const id = await create();
    at('2026-11-03T08:00:00Z');
    const results = await Promise.all([
      patch(id, { chargeback_rate: { amount_cents: 200 } }),
      patch(id, { chargeback_rate: { amount_cents: 300 } }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const rows = await rates(id);
    expect(rows.filter((r) => r.valid_to === null)).toHaveLength(1);
    expect(rows).toHaveLength(3);
  });
});
