import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileHeld } from '@platform/testkit';
import { startAgentPlatformApp, validAgent, validProfile, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
let agentId: string;
let retiredAgentId: string;
let profileId: string;

/** A 422 with these details, compared on what is given (a detail's constraint and message come with it). */
const invalid = (details: object[]) => ({
  code: 'validation_failed',
  message: expect.any(String),
  details: details.map((detail) => expect.objectContaining(detail)),
});
const inlineProfile = () => {
  const { team: _team, ...inline } = validProfile();
  return inline;
};
const request = (over: object = {}) => ({
  agent_id: agentId,
  team: 'Accounts payable',
  purpose: 'Read supplier invoices.',
  profile_id: profileId,
  ...over,
});

async function submit(body: object = request(), key = ctx.tenant.key) {
  const res = await ctx.send('POST', '/v1/access-requests', body, key);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

beforeAll(async () => {
  ctx = await startAgentPlatformApp();
  ctx.clock.now = new Date('2026-11-22T10:00:00Z');
  agentId = (await ctx.send('POST', '/v1/agents', { ...validAgent(), data_classification: 'confidential' })).json().id;
  retiredAgentId = (await ctx.send('POST', '/v1/agents', validAgent())).json().id;
  await ctx.send('POST', `/v1/agents/${retiredAgentId}/retire`);
  profileId = (await ctx.send('POST', '/v1/capability-profiles', validProfile())).json().id;
});
afterAll(() => ctx.close());

describe('POST /v1/access-requests', () => {
  it('scores the request at once, records request.received and request.scored, and explains the score', async () => {
    ctx.clock.now = new Date('2026-11-22T11:00:00Z');
    const body = await submit();
    expect(body).toEqual({
      id: expect.stringMatching(/^req_[0-9a-z]{26}$/),
      agent_id: agentId,
      team: 'Accounts payable',
      purpose: 'Read supplier invoices.',
      profile_id: profileId,
      score: { total: 100, weights_version: 'access-2026-11', knocked_out: false },
      scored_at: '2026-11-22T11:00:00.000Z',
      created_at: '2026-11-22T11:00:00.000Z',
    });
    expect((await ctx.send('GET', `/v1/access-requests/${body.id}`)).json()).toEqual(body);

    const score = (await ctx.send('GET', `/v1/access-requests/${body.id}/score`)).json();
    expect(score).toMatchObject({
      request_id: body.id,
      total: 100,
      weights_version: 'access-2026-11',
      knocked_out: false,
      knockouts: [],
      scored_at: body.scored_at,
    });
    expect(
      score.criteria.map((c: { criterion: string; weight: number; points: number; outcome: string }) => [
        c.criterion,
        c.weight,
        c.points,
        c.outcome,
      ]),
    ).toEqual([
      ['capabilities', 60, 60, 'met'],
      ['cost', 40, 40, 'met'],
    ]);

    const events = await ctx.db.prisma.outboxEvent.findMany({
      where: { type: { startsWith: 'request.' } },
      orderBy: { type: 'asc' },
    });
    expect(events.map((e) => [e.type, JSON.parse(e.payload).data])).toEqual([
      ['request.received', { request_id: body.id, agent_id: agentId }],
      ['request.scored', { request_id: body.id, agent_id: agentId, score: 100 }],
    ]);
  });

  it('saves an inline profile for the request’s team and scores against it', async () => {
    const body = await submit({
      agent_id: agentId,
      team: 'Legal',
      purpose: 'Contract review.',
      profile: { ...inlineProfile(), required_capabilities: ['ocr', 'translate'] },
    });
    expect(body.score).toEqual({ total: 70, weights_version: 'access-2026-11', knocked_out: false });
    const profile = (await ctx.send('GET', `/v1/capability-profiles/${body.profile_id}`)).json();
    expect(profile).toMatchObject({ team: 'Legal', required_capabilities: ['ocr', 'translate'] });
  });

  it('accepts a request that a knockout rules out, with total 0 and the reason', async () => {
    const restricted = (
      await ctx.send('POST', '/v1/capability-profiles', { ...validProfile(), data_classification: 'restricted' })
    ).json().id;
    const body = await submit(request({ profile_id: restricted }));
    expect(body.score).toMatchObject({ total: 0, knocked_out: true });
    const score = (await ctx.send('GET', `/v1/access-requests/${body.id}/score`)).json();
    expect(score.knockouts).toEqual([
      {
        criterion: 'data_classification',
        reason: 'The agent is cleared for confidential data; the team will pass restricted data.',
      },
    ]);
    expect(score.criteria.reduce((sum: number, c: { points: number }) => sum + c.points, 0)).toBe(0);
  });

  it.each([
    ['neither profile_id nor profile', { profile_id: undefined }, [{ field: 'profile_id', reason: 'missing' }]],
    ['both profile_id and profile', { profile: inlineProfile() }, [{ field: 'profile', reason: 'not_allowed' }]],
    ['no purpose', { purpose: undefined }, [{ field: 'purpose', reason: 'missing' }]],
    ['a purpose of 2001 characters', { purpose: 'p'.repeat(2001) }, [{ field: 'purpose', reason: 'too_long' }]],
    ['a score', { score: 100 }, [{ field: 'score', reason: 'not_allowed' }]],
    [
      'an inline profile with a team of its own',
      { profile_id: undefined, profile: { ...validProfile() } },
      [{ field: 'profile.team', reason: 'unknown_field' }],
    ],
  ])('refuses %s with 422', async (_name, change, details) => {
    const res = await ctx.send('POST', '/v1/access-requests', { ...request(), ...change });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(invalid(details));
  });

  it('refuses a profile of another team with 422 on team', async () => {
    const res = await ctx.send('POST', '/v1/access-requests', request({ team: 'Legal' }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: 'The capability profile belongs to team "Accounts payable", not to "Legal".',
      details: [{ field: 'team', reason: 'not_allowed' }],
    });
  });

  it('answers 404 for an unknown agent or profile, also when they belong to another account', async () => {
    const theirAgent = (await ctx.send('POST', '/v1/agents', validAgent(), ctx.other.key)).json().id;
    const theirProfile = (await ctx.send('POST', '/v1/capability-profiles', validProfile(), ctx.other.key)).json().id;
    for (const [change, message] of [
      [{ agent_id: 'agt_doesnotexist' }, 'No agent with the agent_id.'],
      [{ agent_id: theirAgent }, 'No agent with the agent_id.'],
      [{ profile_id: 'cap_doesnotexist' }, 'No capability profile with the profile_id.'],
      [{ profile_id: theirProfile }, 'No capability profile with the profile_id.'],
    ] as const) {
      const res = await ctx.send('POST', '/v1/access-requests', request(change));
      expect(res.statusCode, JSON.stringify(change)).toBe(404);
      expect(res.json()).toEqual({ code: 'not_found', message });
    }
  });

  it('waits for a retire in progress and then refuses with 409 (the agent is read under a share lock)', async () => {
    const agent = (await ctx.send('POST', '/v1/agents', validAgent())).json().id;
    // A retire that has written but not yet committed; a plain read would still see the agent active.
    const { result: res } = await whileHeld(
      ctx.db,
      (tx) => tx.$executeRaw`UPDATE agent_deployments SET status = 'retired', retired_at = now() WHERE id = ${agent}`,
      () => ctx.send('POST', '/v1/access-requests', request({ agent_id: agent })),
    );
    expect(res.statusCode, res.body).toBe(409);
    expect(await ctx.db.prisma.accessRequest.count({ where: { agent_id: agent } })).toBe(0);
  });

  it('keeps a used profile’s team: 409 on a team change, other fields may change', async () => {
    const profile = (await ctx.send('POST', '/v1/capability-profiles', validProfile())).json().id;
    await submit(request({ profile_id: profile }));
    const res = await ctx.send('PATCH', `/v1/capability-profiles/${profile}`, { team: 'Moved' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'conflict',
      message: expect.stringContaining('team cannot change'),
      details: [{ field: 'team', reason: 'not_allowed' }],
    });
    expect((await ctx.send('PATCH', `/v1/capability-profiles/${profile}`, { name: 'Renamed' })).json()).toMatchObject({
      team: 'Accounts payable',
      name: 'Renamed',
    });
  });

  it('refuses a retired agent with 409 and writes nothing', async () => {
    const before = await ctx.db.prisma.accessRequest.count();
    const res = await ctx.send('POST', '/v1/access-requests', request({ agent_id: retiredAgentId }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'conflict', message: 'The agent is retired; access cannot be requested.' });
    expect(await ctx.db.prisma.accessRequest.count()).toBe(before);
  });
});

describe('POST /v1/access-requests/{requestId}/score', () => {
  it('scores again with the agent as it is now, keeps the parts summing to the total and emits request.scored', async () => {
    const agent = (await ctx.send('POST', '/v1/agents', validAgent())).json().id;
    const { id } = await submit(request({ agent_id: agent }));
    await ctx.send('PATCH', `/v1/agents/${agent}`, { capabilities: ['ocr'] });
    ctx.clock.now = new Date('2026-11-23T08:00:00Z');
    const res = await ctx.send('POST', `/v1/access-requests/${id}/score`);
    expect(res.statusCode).toBe(200);
    const score = res.json();
    expect(score).toMatchObject({ request_id: id, total: 70, scored_at: '2026-11-23T08:00:00.000Z' });
    expect(score.criteria[0]).toMatchObject({
      criterion: 'capabilities',
      points: 30,
      outcome: 'deviating',
      reason: 'Offers 1 of 2 required capabilities; missing: classify:invoice.',
    });
    expect(score.criteria.reduce((sum: number, c: { points: number }) => sum + c.points, 0)).toBe(score.total);
    expect((await ctx.send('GET', `/v1/access-requests/${id}`)).json()).toMatchObject({
      score: { total: 70 },
      scored_at: '2026-11-23T08:00:00.000Z',
    });
    expect((await ctx.send('GET', `/v1/access-requests/${id}/score`)).json()).toEqual(score);
    const scored = await ctx.db.prisma.outboxEvent.findMany({ where: { type: 'request.scored' } });
    expect(scored.map((e) => JSON.parse(e.payload).data).filter((d) => d.request_id === id)).toEqual([
      { request_id: id, agent_id: agent, score: 100 },
      { request_id: id, agent_id: agent, score: 70 },
    ]);
  });

  it('knocks a request out when its agent was retired since', async () => {
    const agent = (await ctx.send('POST', '/v1/agents', validAgent())).json().id;
    const { id } = await submit(request({ agent_id: agent }));
    await ctx.send('POST', `/v1/agents/${agent}/retire`);
    const score = (await ctx.send('POST', `/v1/access-requests/${id}/score`)).json();
    expect(score).toMatchObject({
      total: 0,
      knocked_out: true,
      knockouts: [{ criterion: 'agent_status', reason: 'The agent is retired.' }],
    });
  });
});

describe('GET /v1/access-requests', () => {
  let listAgent: string;
  beforeAll(async () => {
    listAgent = (await ctx.send('POST', '/v1/agents', validAgent())).json().id;
    // budgets give totals 100, 80, 60 (cost fraction 1, 0.5, 0) and one knocked out
    for (const monthly_limit_cents of [20_000, 40_000, 10_000, 24_000]) {
      const profile = (
        await ctx.send('POST', '/v1/capability-profiles', {
          ...validProfile(),
          team: 'Ranking',
          budget: { ...validProfile().budget, monthly_limit_cents },
        })
      ).json().id;
      ctx.clock.now = new Date(ctx.clock.now.getTime() + 1000);
      await submit({ agent_id: listAgent, team: 'Ranking', purpose: 'Ranking test.', profile_id: profile });
    }
  });

  it('lists best score first and filters by agent and team', async () => {
    const res = await ctx.send('GET', `/v1/access-requests?agent_id=${listAgent}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { score: { total: number } }) => r.score.total)).toEqual([100, 80, 60, 0]);
    expect(res.json().page).toEqual({ next_cursor: null, has_more: false });
    const byTeam = (await ctx.send('GET', '/v1/access-requests?team=Ranking&limit=100')).json().data;
    expect(byTeam).toHaveLength(4);
    expect((await ctx.send('GET', '/v1/access-requests?team=Nobody')).json().data).toEqual([]);
  });

  it('walks the cursor over equal and different scores, every request exactly once', async () => {
    const all = (await ctx.send('GET', '/v1/access-requests?limit=100')).json().data.map((r: { id: string }) => r.id);
    const seen: string[] = [];
    let url = '/v1/access-requests?limit=2';
    for (let pages = 0; pages < 50; pages++) {
      const res = await ctx.send('GET', url);
      seen.push(...res.json().data.map((r: { id: string }) => r.id));
      if (!res.json().page.has_more) break;
      url = `/v1/access-requests?limit=2&cursor=${encodeURIComponent(res.json().page.next_cursor)}`;
    }
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('refuses a cursor of another filter and limits out of range', async () => {
    const first = (await ctx.send('GET', `/v1/access-requests?agent_id=${listAgent}&limit=1`)).json();
    const res = await ctx.send(
      'GET',
      `/v1/access-requests?limit=1&cursor=${encodeURIComponent(first.page.next_cursor)}`,
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'cursor', reason: 'invalid_format' }]);
    for (const filter of ['team', 'agent_id']) {
      const nul = await ctx.send('GET', `/v1/access-requests?${filter}=%00`);
      expect(nul.statusCode, filter).toBe(422);
      expect(nul.json().details).toEqual([{ field: filter, reason: 'invalid_format' }]);
    }
    for (const limit of ['0', '101', '1e400', 'x']) {
      expect((await ctx.send('GET', `/v1/access-requests?limit=${limit}`)).statusCode, limit).toBe(422);
    }
  });

  it('never shows another account’s requests', async () => {
    const theirAgent = (await ctx.send('POST', '/v1/agents', validAgent(), ctx.other.key)).json().id;
    const theirProfile = (await ctx.send('POST', '/v1/capability-profiles', validProfile(), ctx.other.key)).json().id;
    const theirs = await submit({ ...request(), agent_id: theirAgent, profile_id: theirProfile }, ctx.other.key);
    const mine = (await ctx.send('GET', '/v1/access-requests?limit=100')).json().data.map((r: { id: string }) => r.id);
    expect(mine).not.toContain(theirs.id);
    expect((await ctx.send('GET', `/v1/access-requests?agent_id=${theirAgent}`)).json().data).toEqual([]);
    for (const url of [`/v1/access-requests/${theirs.id}`, `/v1/access-requests/${theirs.id}/score`]) {
      expect((await ctx.send('GET', url)).statusCode, url).toBe(404);
    }
    expect((await ctx.send('POST', `/v1/access-requests/${theirs.id}/score`)).statusCode).toBe(404);
  });
});
