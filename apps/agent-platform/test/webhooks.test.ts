import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, startReceiver, type Receiver } from '@platform/testkit';
import { verifySignature } from '@platform/webhooks';
import { startAgentPlatformApp, validAgent, validProfile, type AgentPlatformTestContext } from './helpers.js';
import { agentPlatformDescriptor } from '../src/descriptor.js';

let ctx: AgentPlatformTestContext;
let receiver: Receiver;
let stopWorkers: () => Promise<void>;

beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  receiver = await startReceiver();
  stopWorkers = await ctx.startWebhookDelivery();
});
afterAll(async () => {
  await stopWorkers();
  await receiver.close();
  await ctx.close();
});

describe('agent platform webhooks', () => {
  it('delivers agent.created, .updated and .archived with X-Platform-* headers', async () => {
    const hook = (
      await ctx.send('POST', '/v1/webhooks', {
        url: `${receiver.url}/agents`,
        events: ['agent.created', 'agent.updated', 'agent.archived'],
      })
    ).json();
    const agent = (await ctx.send('POST', '/v1/agents', validAgent())).json();
    await ctx.send('PATCH', `/v1/agents/${agent.id}`, { chargeback_rate: { amount_cents: 150 } });
    await ctx.send('POST', `/v1/agents/${agent.id}/retire`);
    const got = await receiver.waitFor(3, '/agents');
    for (const request of got) {
      expect(request.headers['x-service-signature']).toBeUndefined();
      expect(
        verifySignature(request.raw, String(request.headers['x-platform-signature']), hook.signing_secret).valid,
      ).toBe(true);
      expect(request.headers['x-platform-delivery']).toMatch(/^dlv_/);
    }
    const byType = Object.fromEntries(
      got.map((r) => [String(r.headers['x-platform-event']), JSON.parse(r.raw.toString())]),
    );
    expect(byType['agent.created'].data).toEqual({ agent_id: agent.id, status: 'active' });
    expect(byType['agent.updated'].data).toEqual({
      agent_id: agent.id,
      changed_fields: ['chargeback_rate.amount_cents'],
    });
    expect(byType['agent.archived'].data).toEqual({ agent_id: agent.id, status: 'retired' });
  });

  it('delivers request.received and request.scored, valid against the catalogue, only to a key that may read requests', async () => {
    const hook = (
      await ctx.send('POST', '/v1/webhooks', {
        url: `${receiver.url}/requests`,
        events: ['request.received', 'request.scored'],
      })
    ).json();
    const agent = (await ctx.send('POST', '/v1/agents', validAgent())).json().id;
    const profile = (await ctx.send('POST', '/v1/capability-profiles', validProfile())).json().id;
    const request = (
      await ctx.send('POST', '/v1/access-requests', {
        agent_id: agent,
        profile_id: profile,
        team: validProfile().team,
        purpose: 'Webhook test.',
      })
    ).json();
    const got = await receiver.waitFor(2, '/requests');
    for (const r of got)
      expect(verifySignature(r.raw, String(r.headers['x-platform-signature']), hook.signing_secret).valid).toBe(true);
    const byType = Object.fromEntries(
      got.map((r) => [String(r.headers['x-platform-event']), JSON.parse(r.raw.toString())]),
    );
    expect(byType['request.received'].data).toEqual({ request_id: request.id, agent_id: agent });
    expect(byType['request.scored'].data).toEqual({ request_id: request.id, agent_id: agent, score: 100 });

    const types = (await ctx.send('GET', '/v1/event-types')).json().data as { type: string; scope: string }[];
    expect(types.filter((t) => t.type.startsWith('request.')).map((t) => t.scope)).toEqual([
      'requests:read',
      'requests:read',
    ]);
    const agentsOnly = (
      await addKey(ctx.db.prisma, ctx.tenant, { service: agentPlatformDescriptor, scopes: ['agents:read'] })
    ).key;
    const refused = await ctx.send(
      'POST',
      '/v1/webhooks',
      { url: `${receiver.url}/requests`, events: ['request.scored'] },
      agentsOnly,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'scope_missing',
      details: [{ field: 'requests:read', reason: 'not_granted' }],
    });
  });

  it('has its own catalogue of ten event types', async () => {
    const types = (await ctx.send('GET', '/v1/event-types')).json().data.map((e: { type: string }) => e.type);
    expect(types).toHaveLength(10);
    expect(types).toContain('catalog_entry.completed');
    expect(types).not.toContain('property.created');
    const res = await ctx.send('POST', '/v1/webhooks', { url: `${receiver.url}/x`, events: ['property.created'] });
    expect(res.statusCode).toBe(422);
  });
});
