import { expect } from 'vitest';
import { validAgent, validProfile, type AgentPlatformTestContext } from './helpers.js';

export type Session = {
  id: string;
  agent_id: string;
  team: string;
  status: string;
  starts_at: string;
  ends_at: string;
  sequence: number;
  history: { starts_at: string; ends_at: string; until: string }[];
  [key: string]: unknown;
};

/** Times in December 2026 (Berlin: UTC+1), after the tests' clock. */
export const at = (day: number, hour: number, minute = 0) =>
  new Date(Date.UTC(2026, 11, day, hour, minute)).toISOString();
export const slot = (day: number, from: number, to: number) => ({ starts_at: at(day, from), ends_at: at(day, to) });

/** Helpers bound to one test app. */
export function sessionHelpers(ctx: AgentPlatformTestContext) {
  let agents = 0;
  const helpers = {
    /** A new active agent of the key's account; resolves to its id. */
    async agent(key = ctx.tenant.key, name = `Invoice triage ${++agents}`): Promise<string> {
      const res = await ctx.send('POST', '/v1/agents', { ...validAgent(), name }, key);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    },
    /** An access request of the team for the agent; resolves to its id. */
    async accessRequest(agentId: string, team: string, key = ctx.tenant.key): Promise<string> {
      const { team: _team, ...profile } = validProfile();
      const res = await ctx.send(
        'POST',
        '/v1/access-requests',
        { agent_id: agentId, team, purpose: 'Read supplier invoices.', profile },
        key,
      );
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    },
    post: (url: string, body?: unknown, key = ctx.tenant.key) => ctx.send('POST', url, body, key),
    create: (body: object, key = ctx.tenant.key) => ctx.send('POST', '/v1/evaluation-sessions', body, key),
    /** Creates a session (201 expected); one evaluator unless the body says otherwise. */
    async created(body: object, key = ctx.tenant.key): Promise<Session> {
      const res = await helpers.create('evaluator_roles' in body ? body : { evaluator_count: 1, ...body }, key);
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as Session;
    },
    action: (id: string, action: string, body?: unknown, key = ctx.tenant.key) =>
      ctx.send('POST', `/v1/evaluation-sessions/${id}/${action}`, body, key),
    get: async (id: string, key = ctx.tenant.key) =>
      (await ctx.send('GET', `/v1/evaluation-sessions/${id}`, undefined, key)).json() as Session,
    /** The data of the outbox events of the type for the session. */
    async events(type: string, sessionId: string): Promise<Record<string, unknown>[]> {
      const rows = await ctx.db.prisma.outboxEvent.findMany({ where: { type }, orderBy: { created_at: 'asc' } });
      return rows
        .map((row) => JSON.parse(row.payload) as { data: Record<string, unknown> })
        .map((e) => e.data)
        .filter((data) => data.session_id === sessionId);
    },
  };
  return helpers;
}
