// Agents and their artifacts: create, read, list, change, upload, download (and 304), delete, retire.
import { describe, expect, it } from 'vitest';
import { ApiError, idempotencyKey, multipart, paginate, unwrap } from '@platform/client';
import type { ContractRun } from '../harness.js';
import type { AgentState } from './state.js';

export const agentBody = (name: string, capabilities: string[]) => ({
  name,
  description: `${name}: answers questions about contracts.`,
  owning_team: 'legal-ai',
  capabilities,
  chargeback_rate: { amount_cents: 12, unit: 'per_request' as const },
  data_classification: 'confidential' as const,
});

export function describeAgents(run: ContractRun, state: AgentState): void {
  const client = () => run.clients.agents;

  describe('agents and artifacts', () => {
    it('creates agents (once per Idempotency-Key), refuses an invalid one with 422, reads, lists and changes them', async () => {
      const key = idempotencyKey();
      const body = agentBody('Contract assistant', ['summarise', 'contracts:de']);
      const created = await unwrap(client().POST('/v1/agents', { body, headers: { 'Idempotency-Key': key } }));
      expect((await client().POST('/v1/agents', { body, headers: { 'Idempotency-Key': key } })).data?.id).toBe(
        created.id,
      );
      state.agentId = created.id;
      state.otherAgentId = (
        await unwrap(client().POST('/v1/agents', { body: agentBody('Clause finder', ['summarise']) }))
      ).id;
      const invalid = await unwrap(
        client().POST('/v1/agents', { body: { ...body, chargeback_rate: { amount_cents: -1, unit: 'per_request' } } }),
      ).catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(ApiError);
      expect(invalid).toMatchObject({ status: 422 });
      const agent = { params: { path: { agentId: state.agentId } } };
      expect((await unwrap(client().GET('/v1/agents/{agentId}', agent))).name).toBe('Contract assistant');
      const ids: string[] = [];
      for await (const a of client().agents.list({ status: 'active' })) ids.push(a.id);
      expect(ids).toEqual(expect.arrayContaining([state.agentId, state.otherAgentId]));
      expect(
        (
          await unwrap(
            client().PATCH('/v1/agents/{agentId}', {
              ...agent,
              body: { description: 'Summarises contracts in German.' },
            }),
          )
        ).description,
      ).toBe('Summarises contracts in German.');
      const foreign = await run.recorder.fetch(`${run.urls.agents}/v1/agents/${state.agentId}`, {
        headers: { apikey: run.otherAgents.key },
      });
      expect(foreign.status).toBe(404);
    });

    it('uploads, lists, reads, changes, downloads (and 304) and deletes artifacts', async () => {
      const agent = { params: { path: { agentId: state.agentId } } };
      const card = new Blob(['# Model card\n\nA contract assistant.\n'], { type: 'text/markdown' });
      const artifact = await unwrap(
        client().POST('/v1/agents/{agentId}/artifacts', {
          ...agent,
          body: { kind: 'model_card', title: 'Model card', file: card },
          bodySerializer: multipart,
        }),
      );
      for await (const a of paginate(client(), '/v1/agents/{agentId}/artifacts', { path: { agentId: state.agentId } }))
        expect(a.agent_id ?? state.agentId).toBe(state.agentId);
      const one = { params: { path: { agentId: state.agentId, artifactId: artifact.id } } };
      expect((await unwrap(client().GET('/v1/agents/{agentId}/artifacts/{artifactId}', one))).kind).toBe('model_card');
      expect(
        (
          await unwrap(
            client().PATCH('/v1/agents/{agentId}/artifacts/{artifactId}', { ...one, body: { title: 'Model card v2' } }),
          )
        ).title,
      ).toBe('Model card v2');
      const download = await client().GET('/v1/agents/{agentId}/artifacts/{artifactId}/content', {
        ...one,
        parseAs: 'text',
      });
      expect(download.data).toContain('Model card');
      const again = await client().GET('/v1/agents/{agentId}/artifacts/{artifactId}/content', {
        ...one,
        headers: { 'If-None-Match': download.response.headers.get('etag')! },
        parseAs: 'text',
      });
      expect(again.response.status).toBe(304);
      const extra = await unwrap(
        client().POST('/v1/agents/{agentId}/artifacts', {
          ...agent,
          body: { kind: 'prompt', file: new Blob(['You are helpful.'], { type: 'text/plain' }) },
          bodySerializer: multipart,
        }),
      );
      expect(
        (
          await client().DELETE('/v1/agents/{agentId}/artifacts/{artifactId}', {
            params: { path: { agentId: state.agentId, artifactId: extra.id } },
          })
        ).response.status,
      ).toBe(204);
    });
  });
}

/** Retires the second agent (after everything else used it); a retired agent refuses usage with 409. */
export function describeRetirement(run: ContractRun, state: AgentState): void {
  describe('retirement', () => {
    it('retires an agent, which then refuses usage with 409', async () => {
      const agent = { params: { path: { agentId: state.otherAgentId } } };
      expect((await unwrap(run.clients.agents.POST('/v1/agents/{agentId}/retire', agent))).status).toBe('retired');
      const usage = await run.clients.agents.POST('/v1/agents/{agentId}/usage', {
        ...agent,
        body: {
          records: [
            {
              client_id: 'late-1',
              team: 'legal',
              quantity: 1,
              unit: 'per_request',
              occurred_at: new Date().toISOString(),
            },
          ],
        },
      });
      expect(usage.response.status).toBe(409);
    });
  });
}
