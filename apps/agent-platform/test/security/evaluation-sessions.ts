import type { SecurityRoute } from '@platform/testkit';
import type { AgentPlatformTestContext } from '../helpers.js';
import { createAgent } from './agents.js';

const times = (day: number) => ({
  starts_at: new Date(Date.UTC(2031, 0, day, 9)).toISOString(),
  ends_at: new Date(Date.UTC(2031, 0, day, 10)).toISOString(),
});

/** Proposes a session of a new agent with the key; resolves to its id and the agent's. */
async function proposeSession(ctx: AgentPlatformTestContext, key: string): Promise<{ agent: string; session: string }> {
  const agent = await createAgent(ctx, key);
  const session = (
    await ctx.send(
      'POST',
      '/v1/evaluation-sessions',
      { agent_id: agent, team: 'Security review', ...times(6), evaluator_count: 1 },
      key,
    )
  ).json().id as string;
  return { agent, session };
}

/** The evaluation session routes (all under `sessions:write`, reading too), on sessions of the tenant and of another account. */
export async function evaluationSessionSecurityRoutes(ctx: AgentPlatformTestContext): Promise<SecurityRoute[]> {
  const mine = await proposeSession(ctx, ctx.tenant.key);
  const theirs = await proposeSession(ctx, ctx.other.key);
  const scope = 'sessions:write';
  const onSession = (method: SecurityRoute['method'], suffix: string, body?: unknown): SecurityRoute => ({
    method,
    url: `/v1/evaluation-sessions/${mine.session}${suffix}`,
    otherTenantUrl: `/v1/evaluation-sessions/${theirs.session}${suffix}`,
    missingUrl: `/v1/evaluation-sessions/ses_missing${suffix}`,
    scope,
    body,
  });
  return [
    {
      method: 'POST',
      url: '/v1/evaluation-sessions',
      scope,
      body: { agent_id: mine.agent, team: 'Another team', ...times(7), evaluator_count: 1 },
    },
    { method: 'GET', url: '/v1/evaluation-sessions', scope },
    onSession('GET', ''),
    onSession('GET', '/ics'),
    onSession('POST', '/confirm', { by: 'team' }),
    onSession('POST', '/reschedule', times(8)),
    onSession('POST', '/cancel', { by: 'team', reason: 'other' }),
    onSession('POST', '/complete'),
  ];
}
