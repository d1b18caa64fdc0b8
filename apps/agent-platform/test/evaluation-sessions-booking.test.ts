import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileHeld } from '@platform/testkit';
import { startAgentPlatformApp, type AgentPlatformTestContext } from './helpers.js';
import { at, sessionHelpers, slot, type Session } from './session-helpers.js';

let ctx: AgentPlatformTestContext;
let s: ReturnType<typeof sessionHelpers>;
const NOW = new Date('2026-11-23T08:00:00Z');

beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  ctx.clock.now = NOW;
  s = sessionHelpers(ctx);
});
afterAll(() => ctx.close());

/** Holds the agents' rows, so that both creations wait at the same point and then run at once. */
const holdingAgents =
  (ids: string[]) => (tx: { $queryRawUnsafe: (sql: string, ...values: unknown[]) => Promise<unknown> }) =>
    tx.$queryRawUnsafe('SELECT id FROM agent_deployments WHERE id = ANY($1) FOR UPDATE', ids);

/** Exactly one 201 and one 409 `conflict` naming the winner for the field. */
function oneWins(results: { statusCode: number; json(): unknown }[], field: 'agent_id' | 'team') {
  const won = results.filter((r) => r.statusCode === 201);
  const lost = results.filter((r) => r.statusCode === 409);
  expect(won.map((r) => r.statusCode).concat(lost.map((r) => r.statusCode))).toEqual([201, 409]);
  const winner = won[0].json() as Session;
  expect(lost[0].json()).toEqual({
    code: 'conflict',
    message: expect.any(String),
    details: [{ field, reason: 'overlaps', conflicting_id: winner.id }],
  });
  return winner;
}

const openRows = (where: object) =>
  ctx.db.prisma.evaluationSession.findMany({ where: { ...where, status: { in: ['proposed', 'confirmed'] } } });

describe('no double booking', () => {
  it("lets one of two racing creations for the same agent and time win; the other is 409 with the winner's id", async () => {
    const agentId = await s.agent();
    const body = (team: string) => ({ agent_id: agentId, team, ...slot(1, 9, 10), evaluator_count: 1 });
    const { result, waited } = await whileHeld(
      ctx.db,
      holdingAgents([agentId]),
      () => Promise.all([s.create(body('Team A')), s.create(body('Team B'))]),
      2,
    );
    expect(waited).toBe(2);
    const winner = oneWins(result, 'agent_id');
    expect(await openRows({ agent_id: agentId })).toHaveLength(1);
    expect((await openRows({ agent_id: agentId }))[0].id).toBe(winner.id);
  });

  it('races without a forced interleaving too: exactly one of two simultaneous requests wins', async () => {
    const agentId = await s.agent();
    const body = (team: string) => ({
      agent_id: agentId,
      team,
      starts_at: at(2, 9),
      ends_at: at(2, 10, 30),
      evaluator_count: 1,
    });
    oneWins(await Promise.all([s.create(body('Team C')), s.create(body('Team D'))]), 'agent_id');
  });

  it('lets one of two racing creations for the same team (two agents) win; the other is 409 naming the team', async () => {
    const [first, second] = [await s.agent(), await s.agent()];
    const body = (agentId: string) => ({
      agent_id: agentId,
      team: 'Racing team',
      ...slot(3, 9, 10),
      evaluator_count: 1,
    });
    const { result, waited } = await whileHeld(
      ctx.db,
      holdingAgents([first, second]),
      () => Promise.all([s.create(body(first)), s.create(body(second))]),
      2,
    );
    expect(waited).toBe(2);
    oneWins(result, 'team');
    expect(await openRows({ account_id: ctx.tenant.accountId, team: 'Racing team' })).toHaveLength(1);
  });

  it('refuses partial overlaps, allows back-to-back sessions, other teams of other agents and the same team name in another account', async () => {
    const agentId = await s.agent();
    const booked = await s.created({ agent_id: agentId, team: 'Team E', ...slot(4, 9, 11) });
    const overlapping = await s.create({
      agent_id: agentId,
      team: 'Team F',
      starts_at: at(4, 10, 30),
      ends_at: at(4, 12),
      evaluator_count: 1,
    });
    expect(overlapping.json()).toEqual({
      code: 'conflict',
      message: expect.any(String),
      details: [{ field: 'agent_id', reason: 'overlaps', conflicting_id: booked.id }],
    });
    const teamClash = await s.create({
      agent_id: await s.agent(),
      team: 'Team E',
      starts_at: at(4, 8),
      ends_at: at(4, 9, 30),
      evaluator_count: 1,
    });
    expect(teamClash.json()).toEqual({
      code: 'conflict',
      message: expect.any(String),
      details: [{ field: 'team', reason: 'overlaps', conflicting_id: booked.id }],
    });
    await s.created({ agent_id: agentId, team: 'Team F', ...slot(4, 11, 12) });
    await s.created({ agent_id: agentId, team: 'Team F', ...slot(4, 8, 9) });
    await s.created({ agent_id: await s.agent(), team: 'Team G', ...slot(4, 9, 11) });
    await s.created({ agent_id: await s.agent(ctx.other.key), team: 'Team E', ...slot(4, 9, 11) }, ctx.other.key);
  });

  it('frees the time when a session is cancelled: no overlap conflict afterwards', async () => {
    const agentId = await s.agent();
    const first = await s.created({ agent_id: agentId, team: 'Team H', ...slot(5, 9, 10) });
    await s.action(first.id, 'confirm', { by: 'provider' });
    expect(
      (await s.create({ agent_id: agentId, team: 'Team H', ...slot(5, 9, 10), evaluator_count: 1 })).statusCode,
    ).toBe(409);
    await s.action(first.id, 'cancel', { by: 'team', reason: 'team_declined' });
    await s.created({ agent_id: agentId, team: 'Team H', ...slot(5, 9, 10) });
  });

  it('checks reschedules too, not against the session itself', async () => {
    const agentId = await s.agent();
    const a = await s.created({ agent_id: agentId, team: 'Team I', ...slot(6, 9, 10) });
    const b = await s.created({ agent_id: agentId, team: 'Team J', ...slot(6, 11, 12) });
    const clash = await s.action(b.id, 'reschedule', { starts_at: at(6, 9, 30), ends_at: at(6, 10, 30) });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({
      code: 'conflict',
      message: expect.any(String),
      details: [{ field: 'agent_id', reason: 'overlaps', conflicting_id: a.id }],
    });
    expect(await s.get(b.id)).toMatchObject({ sequence: 0, history: [], ...slot(6, 11, 12) });
    // Overlapping its own old time is fine.
    expect((await s.action(b.id, 'reschedule', { starts_at: at(6, 11, 30), ends_at: at(6, 12, 30) })).statusCode).toBe(
      200,
    );
  });
});

describe('retiring the agent', () => {
  it('cancels its open sessions (by provider, agent_retired) with session.cancelled each, in the retiring transaction; others stay', async () => {
    const agentId = await s.agent();
    const proposed = await s.created({ agent_id: agentId, team: 'Team K', ...slot(7, 9, 10) });
    const confirmed = await s.created({ agent_id: agentId, team: 'Team K', ...slot(8, 9, 10) });
    await s.action(confirmed.id, 'confirm', { by: 'team' });
    const completed = await s.created({ agent_id: agentId, team: 'Team K', ...slot(9, 9, 10) });
    await s.action(completed.id, 'confirm', { by: 'team' });
    await s.action(completed.id, 'complete');
    const cancelled = await s.created({ agent_id: agentId, team: 'Team K', ...slot(10, 9, 10) });
    await s.action(cancelled.id, 'cancel', { by: 'team', reason: 'other' });
    const otherAgent = await s.created({ agent_id: await s.agent(), team: 'Team L', ...slot(7, 9, 10) });

    ctx.clock.now = new Date('2026-11-23T12:00:00Z');
    expect((await s.post(`/v1/agents/${agentId}/retire`)).statusCode).toBe(200);
    for (const session of [proposed, confirmed]) {
      expect(await s.get(session.id)).toMatchObject({
        status: 'cancelled',
        cancelled_by: 'provider',
        cancel_reason: 'agent_retired',
        cancelled_at: '2026-11-23T12:00:00.000Z',
        sequence: 1,
      });
      expect(await s.events('session.cancelled', session.id)).toEqual([
        {
          session_id: session.id,
          agent_id: agentId,
          access_request_id: null,
          starts_at: session.starts_at,
          ends_at: session.ends_at,
          cancelled_by: 'provider',
          reason: 'agent_retired',
          cancelled_at: '2026-11-23T12:00:00.000Z',
        },
      ]);
    }
    expect((await s.get(completed.id)).status).toBe('completed');
    expect(await s.get(cancelled.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'other' });
    expect(await s.events('session.cancelled', cancelled.id)).toHaveLength(1);
    expect((await s.get(otherAgent.id)).status).toBe('proposed');
    const archived = await ctx.db.prisma.outboxEvent.findMany({ where: { type: 'agent.archived' } });
    expect(archived.map((e) => JSON.parse(e.payload).data.agent_id)).toContain(agentId);
    ctx.clock.now = NOW;
  });

  it('never leaves an open session of a retired agent: a creation racing the retirement is stored and cancelled, or refused', async () => {
    const agentId = await s.agent();
    // Both wait on the agent's row; whichever gets it first, the other sees its result.
    const race = () =>
      Promise.all([
        s.post(`/v1/agents/${agentId}/retire`),
        s.create({ agent_id: agentId, team: 'Team M', ...slot(12, 9, 10), evaluator_count: 1 }),
      ]);
    const { result, waited } = await whileHeld(ctx.db, holdingAgents([agentId]), race, 2);
    expect(waited).toBe(2);
    const [retire, create] = result;
    expect(retire.statusCode).toBe(200);
    // Either the session was stored first and is cancelled by the retirement, or it is refused: never an open session of a retired agent.
    expect([201, 409]).toContain(create.statusCode);
    expect(await openRows({ agent_id: agentId })).toEqual([]);
  });
});

describe('GET /v1/evaluation-sessions', () => {
  it('filters by agent_id, status and from/to on starts_at; the cursor is bound to the filters', async () => {
    const agentId = await s.agent();
    const ids: string[] = [];
    for (const day of [14, 15, 16]) {
      ctx.clock.now = new Date(ctx.clock.now.getTime() + 1000);
      ids.push((await s.created({ agent_id: agentId, team: 'Team N', ...slot(day, 9, 10) })).id);
    }
    await s.action(ids[0], 'confirm', { by: 'provider' });
    const list = async (query: string) => {
      const res = await ctx.send('GET', `/v1/evaluation-sessions?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Session[]; page: { next_cursor: string | null; has_more: boolean } };
    };
    expect((await list(`agent_id=${agentId}`)).data.map((x) => x.id)).toEqual([...ids].reverse());
    expect((await list(`agent_id=${agentId}&status=confirmed`)).data.map((x) => x.id)).toEqual([ids[0]]);
    expect((await list(`agent_id=${agentId}&from=${at(15, 9)}`)).data.map((x) => x.id)).toEqual([ids[2], ids[1]]);
    expect((await list(`agent_id=${agentId}&to=${at(15, 9)}`)).data.map((x) => x.id)).toEqual([ids[0]]);
    expect((await list(`agent_id=${agentId}&from=${at(15, 0)}&to=${at(16, 0)}`)).data.map((x) => x.id)).toEqual([
      ids[1],
    ]);
    const bad = await ctx.send('GET', `/v1/evaluation-sessions?from=${at(16, 0)}&to=${at(15, 0)}`);
    expect(bad.json()).toEqual({
      code: 'validation_failed',
      message: expect.any(String),
      details: [{ field: 'to', reason: 'out_of_range' }],
    });

    const first = await list(`agent_id=${agentId}&from=${at(14, 0)}&limit=1`);
    expect(first.page.has_more).toBe(true);
    const next = await list(`agent_id=${agentId}&from=${at(14, 0)}&limit=1&cursor=${first.page.next_cursor}`);
    expect(next.data.map((x) => x.id)).toEqual([ids[1]]);
    const otherFilter = await ctx.send(
      'GET',
      `/v1/evaluation-sessions?agent_id=${agentId}&from=${at(15, 0)}&limit=1&cursor=${first.page.next_cursor}`,
    );
    expect(otherFilter.statusCode).toBe(422);
    expect(otherFilter.json().details).toEqual([{ field: 'cursor', reason: 'invalid_format' }]);
    ctx.clock.now = NOW;
  });
});

describe('tenant isolation', () => {
  it("answers another account's sessions, agents and access requests like missing ones and never lists them", async () => {
    const theirAgent = await s.agent(ctx.other.key);
    const theirRequest = await s.accessRequest(theirAgent, 'Team O', ctx.other.key);
    const theirs = await s.created({ agent_id: theirAgent, team: 'Team O', ...slot(17, 9, 10) }, ctx.other.key);
    const missing = (await ctx.send('GET', '/v1/evaluation-sessions/ses_doesnotexist')).json();
    for (const suffix of ['', '/ics']) {
      const res = await ctx.send('GET', `/v1/evaluation-sessions/${theirs.id}${suffix}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing);
    }
    for (const [action, body] of [
      ['confirm', { by: 'team' }],
      ['cancel', { by: 'team', reason: 'other' }],
      ['complete', undefined],
      ['reschedule', slot(18, 9, 10)],
    ] as const) {
      expect((await s.action(theirs.id, action, body)).statusCode).toBe(404);
    }
    expect(await ctx.db.prisma.evaluationSession.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({
      status: 'proposed',
      sequence: 0,
    });
    const onTheirAgent = await s.create({
      agent_id: theirAgent,
      team: 'Team O',
      ...slot(19, 9, 10),
      evaluator_count: 1,
    });
    expect(onTheirAgent.statusCode).toBe(404);
    expect(onTheirAgent.json().message).toContain('agent_id');
    const withTheirRequest = await s.create({
      agent_id: await s.agent(),
      team: 'Team O',
      access_request_id: theirRequest,
      ...slot(19, 9, 10),
      evaluator_count: 1,
    });
    expect(withTheirRequest.statusCode).toBe(404);
    expect(withTheirRequest.json().message).toContain('access_request_id');
    const mine = (await ctx.send('GET', '/v1/evaluation-sessions?limit=100')).json() as { data: Session[] };
    expect(mine.data.length).toBeGreaterThan(0);
    expect(mine.data.map((x) => x.id)).not.toContain(theirs.id);
    expect((await ctx.send('GET', `/v1/evaluation-sessions?agent_id=${theirAgent}`)).json().data).toEqual([]);
  });
});
