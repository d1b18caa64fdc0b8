import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileBodyValidator } from '@platform/http';
import { AGENT_PLATFORM_EVENTS } from '../src/events.js';
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

/** A 422 with these details, compared on what is given (a detail's constraint and message come with it). */
const invalid = (details: object[]) => ({
  code: 'validation_failed',
  message: expect.any(String),
  details: details.map((detail) => expect.objectContaining(detail)),
});
const invalidTransition = { code: 'invalid_transition', message: expect.any(String) };
/** Whether the data passes the event type's schema in the catalogue (strictly, as request bodies are checked). */
const fitsSchema = (type: string, data: unknown) =>
  compileBodyValidator(AGENT_PLATFORM_EVENTS.find((e) => e.type === type)!.data)(data);
/** The lines of an iCalendar file, unfolded. */
const icsLines = (body: string) => body.replace(/\r\n[ \t]/g, '').split('\r\n');

describe('POST /v1/evaluation-sessions', () => {
  it("proposes a session with roles (the count defaults to their number), its view in UTC with the account's time zone", async () => {
    const agentId = await s.agent();
    const requestId = await s.accessRequest(agentId, 'Accounts payable');
    const res = await s.create({
      agent_id: agentId,
      team: 'Accounts payable',
      access_request_id: requestId,
      ...slot(1, 9, 11),
      evaluator_roles: ['domain_expert', 'security_reviewer'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: expect.stringMatching(/^ses_[0-9a-z]{26}$/),
      agent_id: agentId,
      team: 'Accounts payable',
      access_request_id: requestId,
      evaluator_roles: ['domain_expert', 'security_reviewer'],
      evaluator_count: 2,
      status: 'proposed',
      starts_at: '2026-12-01T09:00:00.000Z',
      ends_at: '2026-12-01T11:00:00.000Z',
      time_zone: 'Europe/Berlin',
      sequence: 0,
      history: [],
      confirmed_by: null,
      confirmed_at: null,
      cancelled_by: null,
      cancel_reason: null,
      cancelled_at: null,
      completed_at: null,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    expect(await s.get(res.json().id)).toEqual(res.json());
  });

  it('takes a count alone, or a count above the number of roles; accepts offsets in RFC 3339', async () => {
    const agentId = await s.agent();
    const counted = await s.created({
      agent_id: agentId,
      team: 'Treasury',
      starts_at: '2026-12-02T10:00:00+01:00',
      ends_at: '2026-12-02T11:30:00+01:00',
      evaluator_count: 3,
    });
    expect(counted).toMatchObject({
      evaluator_roles: [],
      evaluator_count: 3,
      starts_at: '2026-12-02T09:00:00.000Z',
      ends_at: '2026-12-02T10:30:00.000Z',
    });
    const mixed = await s.created({
      agent_id: agentId,
      team: 'Treasury',
      ...slot(3, 9, 10),
      evaluator_roles: ['domain_expert'],
      evaluator_count: 4,
    });
    expect(mixed).toMatchObject({ evaluator_roles: ['domain_expert'], evaluator_count: 4 });
  });

  it('refuses a start in the past, an end not after the start and more than 8 hours (422, one detail each)', async () => {
    const agentId = await s.agent();
    const body = (times: object) => ({ agent_id: agentId, team: 'Treasury', evaluator_count: 1, ...times });
    const cases: [object, object[]][] = [
      [
        { starts_at: '2026-11-23T07:59:00Z', ends_at: '2026-11-23T09:00:00Z' },
        [{ field: 'starts_at', reason: 'out_of_range' }],
      ],
      [{ starts_at: at(4, 10), ends_at: at(4, 10) }, [{ field: 'ends_at', reason: 'out_of_range' }]],
      [{ starts_at: at(4, 10), ends_at: at(4, 9) }, [{ field: 'ends_at', reason: 'out_of_range' }]],
      [{ starts_at: at(4, 10), ends_at: at(4, 18, 1) }, [{ field: 'ends_at', reason: 'out_of_range' }]],
      [
        { starts_at: '2026-11-22T10:00:00Z', ends_at: '2026-11-22T09:00:00Z' },
        [
          { field: 'starts_at', reason: 'out_of_range' },
          { field: 'ends_at', reason: 'out_of_range' },
        ],
      ],
    ];
    for (const [times, details] of cases) {
      const res = await s.create(body(times));
      expect(res.statusCode, JSON.stringify(times)).toBe(422);
      expect(res.json()).toEqual(invalid(details));
    }
    expect((await s.create(body({ starts_at: at(4, 10), ends_at: at(4, 18) }))).statusCode).toBe(201);
    expect(await ctx.db.prisma.evaluationSession.count({ where: { agent_id: agentId } })).toBe(1);
  });

  it('refuses missing evaluators, a count below the number of roles, roles that are not role names and unknown fields (422)', async () => {
    const agentId = await s.agent();
    const base = { agent_id: agentId, team: 'Treasury', ...slot(5, 9, 10) };
    const cases: [object, object[]][] = [
      [{}, [{ field: 'evaluator_count', reason: 'missing' }]],
      [{ evaluator_roles: [] }, [{ field: 'evaluator_count', reason: 'missing' }]],
      [
        { evaluator_roles: ['domain_expert', 'legal'], evaluator_count: 1 },
        [{ field: 'evaluator_count', reason: 'out_of_range' }],
      ],
      [{ evaluator_roles: ['Domain Expert'] }, [{ field: 'evaluator_roles.0', reason: 'invalid_format' }]],
      [{ evaluator_count: 0 }, [{ field: 'evaluator_count', reason: 'out_of_range' }]],
      [{ evaluator_count: 1, evaluator_names: ['Jane Doe'] }, [{ field: 'evaluator_names', reason: 'unknown_field' }]],
      [{ evaluator_count: 1, status: 'confirmed' }, [{ field: 'status', reason: 'not_allowed' }]],
    ];
    for (const [extra, details] of cases) {
      const res = await s.create({ ...base, ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(422);
      expect(res.json()).toEqual(invalid(details));
    }
  });

  it('answers a missing agent 404, a retired one 409 conflict; an access request must exist and be of the same agent and team', async () => {
    const agentId = await s.agent();
    const retired = await s.agent();
    await s.post(`/v1/agents/${retired}/retire`);
    const base = { team: 'Treasury', ...slot(6, 9, 10), evaluator_count: 1 };
    expect((await s.create({ ...base, agent_id: 'agt_doesnotexist' })).json()).toMatchObject({ code: 'not_found' });
    const retiredRes = await s.create({ ...base, agent_id: retired });
    expect(retiredRes.statusCode).toBe(409);
    expect(retiredRes.json()).toMatchObject({ code: 'conflict', message: expect.stringContaining('retired') });

    const requestId = await s.accessRequest(agentId, 'Treasury');
    expect((await s.create({ ...base, agent_id: agentId, access_request_id: 'req_doesnotexist' })).statusCode).toBe(
      404,
    );
    const otherTeam = await s.create({ ...base, agent_id: agentId, team: 'Payroll', access_request_id: requestId });
    expect(otherTeam.statusCode).toBe(422);
    expect(otherTeam.json()).toEqual(invalid([{ field: 'access_request_id', reason: 'not_allowed' }]));
    const otherAgent = await s.create({ ...base, agent_id: await s.agent(), access_request_id: requestId });
    expect(otherAgent.json()).toEqual(invalid([{ field: 'access_request_id', reason: 'not_allowed' }]));
    expect((await s.create({ ...base, agent_id: agentId, access_request_id: requestId })).statusCode).toBe(201);
  });
});

describe('the lifecycle', () => {
  it('confirms, reschedules (history, sequence, back to proposed), confirms again and completes', async () => {
    const agentId = await s.agent();
    const session = await s.created({ agent_id: agentId, team: 'Lifecycle team', ...slot(7, 9, 10) });
    ctx.clock.now = new Date('2026-11-23T09:00:00Z');
    const confirmed = (await s.action(session.id, 'confirm', { by: 'team' })).json() as Session;
    expect(confirmed).toMatchObject({
      status: 'confirmed',
      confirmed_by: 'team',
      confirmed_at: '2026-11-23T09:00:00.000Z',
      sequence: 0,
      updated_at: '2026-11-23T09:00:00.000Z',
    });

    ctx.clock.now = new Date('2026-11-23T10:00:00Z');
    const first = await s.action(session.id, 'reschedule', slot(8, 13, 14));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      status: 'proposed',
      confirmed_by: null,
      confirmed_at: null,
      sequence: 1,
      ...slot(8, 13, 14),
    });
    ctx.clock.now = new Date('2026-11-23T11:00:00Z');
    const second = (
      await s.action(session.id, 'reschedule', {
        starts_at: '2026-12-09T15:00:00+01:00',
        ends_at: '2026-12-09T16:00:00+01:00',
      })
    ).json() as Session;
    expect(second).toMatchObject({
      status: 'proposed',
      sequence: 2,
      starts_at: '2026-12-09T14:00:00.000Z',
      ends_at: '2026-12-09T15:00:00.000Z',
    });
    expect(second.history).toEqual([
      { starts_at: '2026-12-07T09:00:00.000Z', ends_at: '2026-12-07T10:00:00.000Z', until: '2026-11-23T10:00:00.000Z' },
      { starts_at: '2026-12-08T13:00:00.000Z', ends_at: '2026-12-08T14:00:00.000Z', until: '2026-11-23T11:00:00.000Z' },
    ]);

    expect((await s.action(session.id, 'confirm', { by: 'provider' })).json()).toMatchObject({
      status: 'confirmed',
      confirmed_by: 'provider',
    });
    const completed = (await s.action(session.id, 'complete')).json() as Session;
    expect(completed).toMatchObject({ status: 'completed', completed_at: '2026-11-23T11:00:00.000Z', sequence: 2 });
    expect(await s.get(session.id)).toEqual(completed);
    ctx.clock.now = NOW;
  });

  it('refuses every illegal transition with 409 invalid_transition and changes nothing', async () => {
    const agentId = await s.agent();
    const make = (day: number) => s.created({ agent_id: agentId, team: 'Illegal moves', ...slot(day, 9, 10) });
    const proposed = await make(10);
    const confirmed = await make(11);
    await s.action(confirmed.id, 'confirm', { by: 'provider' });
    const completed = await make(12);
    await s.action(completed.id, 'confirm', { by: 'team' });
    await s.action(completed.id, 'complete');
    const cancelled = await make(13);
    await s.action(cancelled.id, 'cancel', { by: 'team', reason: 'team_declined' });

    const actions: Record<string, [string, unknown]> = {
      confirm: ['confirm', { by: 'team' }],
      complete: ['complete', undefined],
      cancel: ['cancel', { by: 'provider', reason: 'other' }],
      reschedule: ['reschedule', slot(20, 9, 10)],
    };
    const illegal: [Session, string[]][] = [
      [proposed, ['complete']],
      [confirmed, ['confirm']],
      [completed, ['confirm', 'complete', 'cancel', 'reschedule']],
      [cancelled, ['confirm', 'complete', 'cancel', 'reschedule']],
    ];
    for (const [session, names] of illegal) {
      const before = await s.get(session.id);
      for (const name of names) {
        const [action, body] = actions[name];
        const res = await s.action(session.id, action, body);
        expect(res.statusCode, `${name} on ${before.status}`).toBe(409);
        expect(res.json()).toEqual(invalidTransition);
        expect(res.json().message).toContain(before.status);
      }
      expect(await s.get(session.id)).toEqual(before);
    }
  });

  it('refuses reschedules into the past, ending before they start or longer than 8 hours (422)', async () => {
    const session = await s.created({ agent_id: await s.agent(), team: 'Late team', ...slot(14, 9, 10) });
    for (const times of [
      { starts_at: '2026-11-22T09:00:00Z', ends_at: '2026-11-22T10:00:00Z' },
      { starts_at: at(15, 10), ends_at: at(15, 9) },
      { starts_at: at(15, 8), ends_at: at(15, 16, 30) },
    ]) {
      expect((await s.action(session.id, 'reschedule', times)).statusCode).toBe(422);
    }
    expect(await s.get(session.id)).toMatchObject({ sequence: 0, history: [], ...slot(14, 9, 10) });
  });

  it('refuses unknown sides and reasons, and free text with a cancellation (422)', async () => {
    const session = await s.created({ agent_id: await s.agent(), team: 'Strict team', ...slot(16, 9, 10) });
    expect((await s.action(session.id, 'confirm', { by: 'agent' })).json()).toEqual(
      invalid([{ field: 'by', reason: 'not_allowed' }]),
    );
    expect((await s.action(session.id, 'confirm', {})).json()).toEqual(invalid([{ field: 'by', reason: 'missing' }]));
    expect((await s.action(session.id, 'cancel', { by: 'team', reason: 'bored' })).json()).toEqual(
      invalid([{ field: 'reason', reason: 'not_allowed' }]),
    );
    const note = await s.action(session.id, 'cancel', { by: 'team', reason: 'other', note: 'Jane is ill' });
    expect(note.json()).toEqual(invalid([{ field: 'note', reason: 'unknown_field' }]));
    expect((await s.get(session.id)).status).toBe('proposed');
  });
});

describe('events', () => {
  it('session.confirmed and session.cancelled carry exactly ids, times, the side and the reason code', async () => {
    const agentId = await s.agent();
    const requestId = await s.accessRequest(agentId, 'Event team');
    const session = await s.created({
      agent_id: agentId,
      team: 'Event team',
      access_request_id: requestId,
      ...slot(17, 9, 10),
      evaluator_roles: ['domain_expert'],
    });
    await s.action(session.id, 'confirm', { by: 'provider' });
    const confirmed = await s.events('session.confirmed', session.id);
    expect(confirmed).toEqual([
      {
        session_id: session.id,
        agent_id: agentId,
        access_request_id: requestId,
        starts_at: at(17, 9),
        ends_at: at(17, 10),
        confirmed_by: 'provider',
        confirmed_at: NOW.toISOString(),
      },
    ]);
    await s.action(session.id, 'reschedule', slot(18, 9, 10));
    await s.action(session.id, 'cancel', { by: 'team', reason: 'team_declined' });
    const cancelled = await s.events('session.cancelled', session.id);
    expect(cancelled).toEqual([
      {
        session_id: session.id,
        agent_id: agentId,
        access_request_id: requestId,
        starts_at: at(18, 9),
        ends_at: at(18, 10),
        cancelled_by: 'team',
        reason: 'team_declined',
        cancelled_at: NOW.toISOString(),
      },
    ]);
    expect(fitsSchema('session.confirmed', confirmed[0])).toBe(true);
    expect(fitsSchema('session.cancelled', cancelled[0])).toBe(true);
    // Exact: no further field passes, and the team's name never appears.
    expect(fitsSchema('session.cancelled', { ...cancelled[0], team: 'Event team' })).toBe(false);
    expect(fitsSchema('session.cancelled', { ...cancelled[0], reason: 'Jane is ill' })).toBe(false);
    for (const event of [...confirmed, ...cancelled]) expect(JSON.stringify(event)).not.toContain('Event team');
    // Reschedules and completion emit nothing of their own: one event each.
    expect(await s.events('session.confirmed', session.id)).toHaveLength(1);
  });

  it('is recorded in the same transaction: a refused action leaves no event', async () => {
    const session = await s.created({ agent_id: await s.agent(), team: 'Quiet team', ...slot(19, 9, 10) });
    await s.action(session.id, 'complete');
    await s.action(session.id, 'cancel', { by: 'team', reason: 'other' });
    await s.action(session.id, 'cancel', { by: 'team', reason: 'other' });
    expect(await s.events('session.cancelled', session.id)).toHaveLength(1);
    expect(await s.events('session.confirmed', session.id)).toEqual([]);
  });
});

describe('GET /v1/evaluation-sessions/{id}/ics', () => {
  it('is an iCalendar REQUEST in Europe/Berlin local times; UID stays, SEQUENCE rises; a cancellation is METHOD:CANCEL', async () => {
    const agentId = await s.agent(ctx.tenant.key, 'Ledger reconciler');
    const session = await s.created({
      agent_id: agentId,
      team: 'Accounts payable',
      ...slot(21, 9, 10),
      evaluator_roles: ['domain_expert', 'auditor'],
    });
    const ics = async () => {
      const res = await ctx.send('GET', `/v1/evaluation-sessions/${session.id}/ics`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="evaluation-session-${session.id}.ics"`);
      return icsLines(res.body);
    };
    const first = await ics();
    expect(first[0]).toBe('BEGIN:VCALENDAR');
    expect(first).toContain('METHOD:REQUEST');
    expect(first).toContain(`UID:${session.id}@agent-platform`);
    expect(first).toContain('SEQUENCE:0');
    expect(first).toContain('STATUS:TENTATIVE');
    expect(first).toContain('BEGIN:VTIMEZONE');
    expect(first).toContain('TZID:Europe/Berlin');
    expect(first).toContain('DTSTART;TZID=Europe/Berlin:20261221T100000');
    expect(first).toContain('DTEND;TZID=Europe/Berlin:20261221T110000');
    expect(first).toContain('SUMMARY:Evaluation session: Ledger reconciler with Accounts payable');
    expect(first).toContain('DESCRIPTION:Evaluators: 2 (domain_expert\\, auditor).');
    expect(first).toContain('DTSTAMP:20261123T080000Z');

    await s.action(session.id, 'confirm', { by: 'team' });
    expect(await ics()).toContain('STATUS:CONFIRMED');
    await s.action(session.id, 'reschedule', slot(22, 14, 15));
    const moved = await ics();
    expect(moved).toContain(`UID:${session.id}@agent-platform`);
    expect(moved).toContain('SEQUENCE:1');
    expect(moved).toContain('DTSTART;TZID=Europe/Berlin:20261222T150000');
    await s.action(session.id, 'reschedule', slot(23, 14, 15));
    expect(await ics()).toContain('SEQUENCE:2');

    await s.action(session.id, 'cancel', { by: 'provider', reason: 'provider_unavailable' });
    const cancelled = await ics();
    expect(cancelled).toContain('METHOD:CANCEL');
    expect(cancelled).toContain('STATUS:CANCELLED');
    expect(cancelled).toContain('SEQUENCE:3');
    expect(cancelled).toContain(`UID:${session.id}@agent-platform`);
  });

  it("is written in the account's time zone", async () => {
    await ctx.db.prisma.account.update({ where: { id: ctx.other.accountId }, data: { time_zone: 'America/New_York' } });
    const agentId = await s.agent(ctx.other.key);
    const session = await s.created(
      { agent_id: agentId, team: 'Accounts payable', ...slot(21, 15, 16) },
      ctx.other.key,
    );
    expect(session.time_zone).toBe('America/New_York');
    const lines = icsLines(
      (await ctx.send('GET', `/v1/evaluation-sessions/${session.id}/ics`, undefined, ctx.other.key)).body,
    );
    expect(lines).toContain('DTSTART;TZID=America/New_York:20261221T100000');
    await ctx.db.prisma.account.update({ where: { id: ctx.other.accountId }, data: { time_zone: 'Europe/Berlin' } });
  });
});
