import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
});
afterAll(() => ctx.close());

const postAgent = (key: string, body: object) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/agents',
    headers: { apikey: ctx.tenant.key, 'idempotency-key': key },
    payload: body,
  });

describe('Idempotency-Key on the agent platform', () => {
  it('replays POST /v1/agents with the same key and body, and creates the agent once', async () => {
    const body = { ...validAgent(), name: 'Idempotent agent' };
    const first = await postAgent('agent-create-1', body);
    expect(first.statusCode).toBe(201);
    const retry = await postAgent('agent-create-1', body);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(await ctx.db.prisma.agentDeployment.count({ where: { name: body.name } })).toBe(1);
    const other = await postAgent('agent-create-1', { ...body, name: 'Another agent' });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    expect(await ctx.db.prisma.agentDeployment.count({ where: { name: 'Another agent' } })).toBe(0);
  });
});
