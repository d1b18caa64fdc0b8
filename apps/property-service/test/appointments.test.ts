import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until, whileHeld } from '@platform/testkit';
import { activeProperty, createInquiry, eventData, startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let propertyId: string;

const NOW = new Date('2026-11-20T10:00:00Z');
let hour = 0;
/** A fresh hour-long time in December (CET, +01:00), so that fixtures never clash. */
const nextTime = () => {
  const start = new Date(Date.UTC(2026, 11, 1, 8) + hour++ * 2 * 3600_000);
  return { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + 3600_000).toISOString() };
};

async function book(inquiryId: string, extra: Record<string, unknown> = {}, key = ctx.tenant.key) {
  const res = await ctx.send('POST', '/v1/appointments', { inquiry_id: inquiryId, ...nextTime(), ...extra }, key);
  if (res.statusCode !== 201) throw new Error(`appointment not created: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; status: string; starts_at: string; ends_at: string; sequence: number } & Record<
    string,
    unknown
  >;
}
const newInquiry = async (property = propertyId) => (await createInquiry(ctx, property)).id;
const act = (id: string, action: string, body?: unknown, key = ctx.tenant.key) =>
  ctx.send('POST', `/v1/appointments/${id}/${action}`, body, key);
const cancelEvents = async (id: string) =>
  (await eventData(ctx, 'appointment.cancelled')).filter((d) => d.appointment_id === id);

beforeAll(async () => {
  ctx = await startPropertyApp();
  ctx.clock.now = NOW;
  propertyId = await activeProperty(ctx);
});
afterAll(() => ctx.close());

describe('POST /v1/appointments', () => {
  it('creates a proposed viewing for the prospect of an inquiry', async () => {
    const inquiry = await createInquiry(ctx, propertyId);
    const time = nextTime();
    const res = await ctx.send('POST', '/v1/appointments', { inquiry_id: inquiry.id, ...time, host: 'Anna Agent' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.stringMatching(/^apt_/),
      property_id: propertyId,
      inquiry_id: inquiry.id,
      slot_id: null,
      host: 'Anna Agent',
      status: 'proposed',
      ...time,
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
    expect((await ctx.db.prisma.appointment.findUniqueOrThrow({ where: { id: res.json().id } })).prospect_id).toBe(
      inquiry.prospectId,
    );
    expect((await ctx.send('GET', `/v1/appointments/${res.json().id}`)).json()).toEqual(res.json());
  });

  it("answers another account's inquiry and a missing one like a missing record (404)", async () => {
    const theirProperty = await activeProperty(ctx, ctx.other.key);
    const theirs = await createInquiry(ctx, theirProperty, { key: ctx.other.key });
    for (const inquiry_id of [theirs.id, 'inq_missing']) {
      const res = await ctx.send('POST', '/v1/appointments', { inquiry_id, ...nextTime() });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect(await ctx.db.prisma.appointment.count({ where: { inquiry_id: theirs.id } })).toBe(0);
  });

  it.each(['mark-sold', 'mark-rented', 'archive'])('refuses a property after %s (409)', async (action) => {
    const property = await activeProperty(ctx);
    const inquiry = await newInquiry(property);
    expect((await ctx.send('POST', `/v1/properties/${property}/${action}`)).statusCode).toBe(200);
    const res = await ctx.send('POST', '/v1/appointments', { inquiry_id: inquiry, ...nextTime() });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict');
    expect(await ctx.db.prisma.appointment.count({ where: { property_id: property } })).toBe(0);
  });

  it.each([
    ['in the past', '2026-11-20T09:59:00Z', '2026-11-20T11:00:00Z', 'starts_at'],
    ['ending at its start', '2026-12-10T10:00:00Z', '2026-12-10T10:00:00Z', 'ends_at'],
    ['ending before its start', '2026-12-10T10:00:00Z', '2026-12-10T09:00:00Z', 'ends_at'],
    ['longer than 8 hours', '2026-12-10T08:00:00Z', '2026-12-10T16:00:01Z', 'ends_at'],
  ])('refuses a time %s (422)', async (_name, starts_at, ends_at, field) => {
    const res = await ctx.send('POST', '/v1/appointments', { inquiry_id: await newInquiry(), starts_at, ends_at });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field, reason: 'out_of_range' }]);
  });

  it('refuses the inquiry of an anonymised prospect (409), also when the erasure commits while the booking waits', async () => {
    const erased = await createInquiry(ctx, propertyId);
    await ctx.db.prisma.prospect.update({ where: { id: erased.prospectId }, data: { anonymised_at: NOW } });
    const res = await ctx.send('POST', '/v1/appointments', { inquiry_id: erased.id, ...nextTime() });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict');

    const erasing = await createInquiry(ctx, propertyId);
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.prospect.update({ where: { id: erasing.prospectId }, data: { anonymised_at: NOW } }),
      () => ctx.send('POST', '/v1/appointments', { inquiry_id: erasing.id, ...nextTime() }),
    );
    expect(waited).toBe(1);
    expect(result.statusCode).toBe(409);
    expect(await ctx.db.prisma.appointment.count({ where: { inquiry_id: { in: [erased.id, erasing.id] } } })).toBe(0);
  });

  it('accepts exactly 8 hours', async () => {
    const res = await ctx.send('POST', '/v1/appointments', {
      inquiry_id: await newInquiry(),
      starts_at: '2026-12-11T08:00:00+01:00',
      ends_at: '2026-12-11T16:00:00+01:00',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ starts_at: '2026-12-11T07:00:00.000Z', ends_at: '2026-12-11T15:00:00.000Z' });
  });
});

describe('the state machine', () => {
  it('confirms (by a side, with its event), then completes', async () => {
    const apt = await book(await newInquiry());
    ctx.clock.now = new Date(NOW.getTime() + 60_000);
    const confirmed = await act(apt.id, 'confirm', { by: 'prospect' });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({
      status: 'confirmed',
      confirmed_by: 'prospect',
      confirmed_at: ctx.clock.now.toISOString(),
      sequence: 0,
    });
    expect((await eventData(ctx, 'appointment.confirmed')).filter((d) => d.appointment_id === apt.id)).toEqual([
      {
        appointment_id: apt.id,
        property_id: propertyId,
        starts_at: apt.starts_at,
        ends_at: apt.ends_at,
        confirmed_by: 'prospect',
      },
    ]);
    const completed = await act(apt.id, 'complete');
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toMatchObject({
      status: 'completed',
      completed_at: ctx.clock.now.toISOString(),
      confirmed_by: 'prospect',
    });
    ctx.clock.now = NOW;
  });

  it.each([
    ['proposed', 'agent', 'agent_unavailable'],
    ['confirmed', 'prospect', 'prospect_declined'],
  ] as const)(
    'cancels a %s appointment with the side and reason code, and emits exactly ids, times, side and reason',
    async (from, by, reason) => {
      const apt = await book(await newInquiry());
      if (from === 'confirmed') await act(apt.id, 'confirm', { by: 'agent' });
      const res = await act(apt.id, 'cancel', { by, reason });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'cancelled',
        cancelled_by: by,
        cancel_reason: reason,
        cancelled_at: NOW.toISOString(),
        sequence: 1,
      });
      expect(await cancelEvents(apt.id)).toEqual([
        {
          appointment_id: apt.id,
          property_id: propertyId,
          starts_at: apt.starts_at,
          ends_at: apt.ends_at,
          cancelled_by: by,
          reason,
        },
      ]);
    },
  );

  it('refuses an unknown side or reason, and free text (422)', async () => {
    const apt = await book(await newInquiry());
    expect((await act(apt.id, 'confirm', { by: 'someone' })).statusCode).toBe(422);
    expect((await act(apt.id, 'cancel', { by: 'agent', reason: 'Keine Lust' })).statusCode).toBe(422);
    expect(
      (await act(apt.id, 'cancel', { by: 'agent', reason: 'other', note: 'Frau Meier ist krank' })).statusCode,
    ).toBe(422);
    expect((await ctx.send('GET', `/v1/appointments/${apt.id}`)).json().status).toBe('proposed');
  });

  const reach = async (status: 'proposed' | 'confirmed' | 'completed' | 'cancelled') => {
    const apt = await book(await newInquiry());
    if (status === 'confirmed' || status === 'completed') await act(apt.id, 'confirm', { by: 'agent' });
    if (status === 'completed') await act(apt.id, 'complete');
    if (status === 'cancelled') await act(apt.id, 'cancel', { by: 'agent', reason: 'other' });
    return apt;
  };
  const ACTIONS: Record<string, () => unknown> = {
    confirm: () => ({ by: 'agent' }),
    complete: () => undefined,
    cancel: () => ({ by: 'agent', reason: 'other' }),
    reschedule: () => nextTime(),
  };
  const ILLEGAL: [string, string][] = [
    ['proposed', 'complete'],
    ['confirmed', 'confirm'],
    ...['confirm', 'complete', 'cancel', 'reschedule'].flatMap((action) => [
      ['completed', action] as [string, string],
      ['cancelled', action] as [string, string],
    ]),
  ];

  it.each(ILLEGAL)('refuses from %s: %s (409 invalid_transition), changing nothing', async (status, action) => {
    const apt = await reach(status as 'proposed');
    const before = (await ctx.send('GET', `/v1/appointments/${apt.id}`)).json();
    const events = await ctx.db.prisma.outboxEvent.count();
    const res = await act(apt.id, action, ACTIONS[action]!());
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('invalid_transition');
    expect(res.json().message).toContain(status);
    expect((await ctx.send('GET', `/v1/appointments/${apt.id}`)).json()).toEqual(before);
    expect(await ctx.db.prisma.outboxEvent.count()).toBe(events);
  });

  it('answers an unknown appointment with 404 for every action', async () => {
    for (const action of Object.keys(ACTIONS))
      expect((await act('apt_missing', action, ACTIONS[action]!())).statusCode).toBe(404);
  });
});

describe('POST /v1/appointments/{id}/reschedule', () => {
  it('moves the time, keeps the old ones in the history, raises the sequence and undoes the confirmation', async () => {
    const apt = await book(await newInquiry(), { host: 'Rita Reschedule' });
    await act(apt.id, 'confirm', { by: 'prospect' });
    ctx.clock.now = new Date(NOW.getTime() + 3600_000);
    const second = nextTime();
    const res = await act(apt.id, 'reschedule', second);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'proposed',
      ...second,
      sequence: 1,
      confirmed_by: null,
      confirmed_at: null,
      history: [{ starts_at: apt.starts_at, ends_at: apt.ends_at, until: ctx.clock.now.toISOString() }],
    });
    const third = nextTime();
    const again = (await act(apt.id, 'reschedule', third)).json();
    expect(again.sequence).toBe(2);
    expect(again.history).toEqual([
      { starts_at: apt.starts_at, ends_at: apt.ends_at, until: ctx.clock.now.toISOString() },
      { starts_at: second.starts_at, ends_at: second.ends_at, until: ctx.clock.now.toISOString() },
    ]);
    // The old times are free again for the host.
    expect(
      (
        await ctx.send('POST', '/v1/appointments', {
          inquiry_id: await newInquiry(),
          starts_at: apt.starts_at,
          ends_at: apt.ends_at,
          host: 'Rita Reschedule',
        })
      ).statusCode,
    ).toBe(201);
    ctx.clock.now = NOW;
  });

  it('takes an appointment of a slot out of its slot', async () => {
    const slot = (
      await ctx.send('POST', `/v1/properties/${propertyId}/viewing-slots`, { ...nextTime(), capacity: 1 })
    ).json();
    const prisma = ctx.db.prisma;
    await newInquiry();
    const [apt] = (await ctx.send('POST', `/v1/viewing-slots/${slot.id}/allocate`)).json().data;
    expect(apt.slot_id).toBe(slot.id);
    const res = await act(apt.id, 'reschedule', nextTime());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ slot_id: null, status: 'proposed', sequence: 1 });
    expect((await prisma.appointment.findUniqueOrThrow({ where: { id: apt.id } })).slot_id).toBeNull();
    expect((await ctx.send('GET', `/v1/viewing-slots/${slot.id}`)).json().booked).toBe(0);
  });

  it('refuses a time in the past (422) and a clash with the host (409 naming the other)', async () => {
    const a = await book(await newInquiry(), { host: 'Clara Clash' });
    const b = await book(await newInquiry(), { host: 'Clara Clash' });
    expect(
      (await act(b.id, 'reschedule', { starts_at: '2026-11-19T10:00:00Z', ends_at: '2026-11-19T11:00:00Z' }))
        .statusCode,
    ).toBe(422);
    const res = await act(b.id, 'reschedule', { starts_at: a.starts_at, ends_at: a.ends_at });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'conflict',
      details: [{ field: 'host', reason: 'overlaps', conflicting_id: a.id }],
    });
    expect((await ctx.send('GET', `/v1/appointments/${b.id}`)).json()).toMatchObject({
      starts_at: b.starts_at,
      sequence: 0,
      history: [],
    });
  });
});

describe('no double booking', () => {
  it('lets one of two racing creations for the same host and time win; the other is 409 naming the winner', async () => {
    const time = nextTime();
    const [x, y] = [await newInquiry(), await newInquiry()];
    const results = await Promise.all(
      [x, y].map((inquiry_id) => ctx.send('POST', '/v1/appointments', { inquiry_id, ...time, host: 'Hanna Host' })),
    );
    const won = results.filter((r) => r.statusCode === 201);
    const lost = results.filter((r) => r.statusCode !== 201);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.statusCode).toBe(409);
    expect(lost[0]!.json()).toMatchObject({
      code: 'conflict',
      details: [{ field: 'host', reason: 'overlaps', conflicting_id: won[0]!.json().id }],
    });
    expect(await ctx.db.prisma.appointment.count({ where: { host: 'Hanna Host' } })).toBe(1);
  });

  it('lets one of two racing creations for the same prospect win (two inquiries, different hosts)', async () => {
    const other = await activeProperty(ctx);
    const first = await createInquiry(ctx, propertyId);
    const second = await createInquiry(ctx, other, { prospectId: first.prospectId });
    const time = nextTime();
    const results = await Promise.all([
      ctx.send('POST', '/v1/appointments', { inquiry_id: first.id, ...time, host: 'Host One' }),
      ctx.send('POST', '/v1/appointments', { inquiry_id: second.id, ...time, host: 'Host Two' }),
    ]);
    const won = results.filter((r) => r.statusCode === 201);
    const lost = results.filter((r) => r.statusCode !== 201);
    expect([won.length, lost.length]).toEqual([1, 1]);
    expect(lost[0]!.statusCode).toBe(409);
    expect(lost[0]!.json()).toMatchObject({
      code: 'conflict',
      details: [{ field: 'inquiry_id', reason: 'overlaps', conflicting_id: won[0]!.json().id }],
    });
    expect(await ctx.db.prisma.appointment.count({ where: { prospect_id: first.prospectId } })).toBe(1);
  });

  it('is the database that refuses: a creation waits for an uncommitted clashing booking and then loses to it', async () => {
    const time = nextTime();
    const held = await book(await newInquiry(), { host: 'Uwe Uncommitted' }); // moved onto the time inside the held transaction
    const inquiry_id = await newInquiry();
    let waited = false;
    const pending = await ctx.db.prisma.$transaction(
      async (tx) => {
        await tx.appointment.update({
          where: { id: held.id },
          data: { starts_at: new Date(time.starts_at), ends_at: new Date(time.ends_at) },
        });
        const request = ctx.send('POST', '/v1/appointments', { inquiry_id, ...time, host: 'Uwe Uncommitted' });
        waited = await until(
          async () =>
            (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted'))[0]!.n > 0,
          5000,
        );
        return { request };
      },
      { timeout: 10_000 },
    );
    const res = await pending.request;
    expect(waited).toBe(true);
    expect(res.statusCode).toBe(409);
    expect(res.json().details).toEqual([{ field: 'host', reason: 'overlaps', conflicting_id: held.id }]);
  });

  it('frees the time once the appointment is cancelled', async () => {
    const time = nextTime();
    const first = await book(await newInquiry(), { ...time, host: 'Frieda Free' });
    const blocked = await ctx.send('POST', '/v1/appointments', {
      inquiry_id: await newInquiry(),
      ...time,
      host: 'Frieda Free',
    });
    expect(blocked.statusCode).toBe(409);
    await act(first.id, 'cancel', { by: 'agent', reason: 'agent_unavailable' });
    expect(
      (await ctx.send('POST', '/v1/appointments', { inquiry_id: await newInquiry(), ...time, host: 'Frieda Free' }))
        .statusCode,
    ).toBe(201);
  });

  it('lets different hosts, and the same host at adjacent times, book', async () => {
    const time = nextTime();
    expect(
      (await ctx.send('POST', '/v1/appointments', { inquiry_id: await newInquiry(), ...time, host: 'Adam' }))
        .statusCode,
    ).toBe(201);
    expect(
      (await ctx.send('POST', '/v1/appointments', { inquiry_id: await newInquiry(), ...time, host: 'Berta' }))
        .statusCode,
    ).toBe(201);
    const after = {
      starts_at: time.ends_at,
      ends_at: new Date(new Date(time.ends_at).getTime() + 1800_000).toISOString(),
    };
    expect(
      (await ctx.send('POST', '/v1/appointments', { inquiry_id: await newInquiry(), ...after, host: 'Adam' }))
        .statusCode,
    ).toBe(201);
  });
});

describe('a property that is sold, let or archived', () => {
  it.each(['mark-sold', 'mark-rented', 'archive'])(
    '%s cancels its open appointments (agent, property_unavailable), one event each',
    async (action) => {
      const property = await activeProperty(ctx);
      const proposed = await book(await newInquiry(property));
      const confirmed = await book(await newInquiry(property));
      await act(confirmed.id, 'confirm', { by: 'prospect' });
      const done = await book(await newInquiry(property));
      await act(done.id, 'cancel', { by: 'prospect', reason: 'prospect_declined' });
      const elsewhere = await book(await newInquiry());
      ctx.clock.now = new Date(NOW.getTime() + 5 * 60_000);

      expect((await ctx.send('POST', `/v1/properties/${property}/${action}`)).statusCode).toBe(200);
      for (const apt of [proposed, confirmed]) {
        expect((await ctx.send('GET', `/v1/appointments/${apt.id}`)).json()).toMatchObject({
          status: 'cancelled',
          cancelled_by: 'agent',
          cancel_reason: 'property_unavailable',
          cancelled_at: ctx.clock.now.toISOString(),
        });
        expect(await cancelEvents(apt.id)).toEqual([
          {
            appointment_id: apt.id,
            property_id: property,
            starts_at: apt.starts_at,
            ends_at: apt.ends_at,
            cancelled_by: 'agent',
            reason: 'property_unavailable',
          },
        ]);
      }
      expect((await ctx.send('GET', `/v1/appointments/${done.id}`)).json()).toMatchObject({
        cancelled_by: 'prospect',
        cancel_reason: 'prospect_declined',
      });
      expect(await cancelEvents(done.id)).toHaveLength(1);
      expect((await ctx.send('GET', `/v1/appointments/${elsewhere.id}`)).json().status).toBe('proposed');
      ctx.clock.now = NOW;
    },
  );

  it('cancels them in the transaction of the status change: the status is not visible while a cancellation waits', async () => {
    const property = await activeProperty(ctx);
    const apt = await book(await newInquiry(property));
    const during = await ctx.db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe('SELECT id FROM appointments WHERE id = $1 FOR UPDATE', apt.id);
        const request = ctx.send('POST', `/v1/properties/${property}/mark-sold`);
        await until(
          async () =>
            (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted'))[0]!.n > 0,
          5000,
        );
        const status = (await ctx.db.prisma.property.findUniqueOrThrow({ where: { id: property } })).status;
        return { request, status, events: (await cancelEvents(apt.id)).length };
      },
      { timeout: 10_000 },
    );
    expect(during).toMatchObject({ status: 'active', events: 0 });
    expect((await during.request).statusCode).toBe(200);
    expect((await ctx.db.prisma.property.findUniqueOrThrow({ where: { id: property } })).status).toBe('sold');
    expect(await cancelEvents(apt.id)).toHaveLength(1);
  });

  it('also cancels its open slots', async () => {
    const property = await activeProperty(ctx);
    const slot = (
      await ctx.send('POST', `/v1/properties/${property}/viewing-slots`, { ...nextTime(), capacity: 2 })
    ).json();
    await ctx.send('POST', `/v1/properties/${property}/archive`);
    expect((await ctx.send('GET', `/v1/viewing-slots/${slot.id}`)).json().status).toBe('cancelled');
  });
});

describe('GET /v1/appointments/{id}/ics', () => {
  const ics = async (id: string) => {
    const res = await ctx.send('GET', `/v1/appointments/${id}/ics`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    return res.body.replace(/\r\n[ \t]/g, ''); // unfolded
  };
  /** The first line of the property in the VEVENT (the VTIMEZONE has DTSTARTs of its own), or of the calendar. */
  const line = (text: string, name: string) => {
    const event = text.slice(text.indexOf('BEGIN:VEVENT'));
    const lines = name === 'METHOD' ? text.split('\r\n') : event.split('\r\n');
    return lines.find((l) => l.startsWith(`${name}:`) || l.startsWith(`${name};`));
  };

  it('is an event in Berlin time with a UID that stays across reschedules, a rising SEQUENCE and a CANCEL at the end', async () => {
    const apt = await book(await newInquiry(), { starts_at: '2026-12-15T09:00:00Z', ends_at: '2026-12-15T10:00:00Z' });
    const first = await ics(apt.id);
    expect(first).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(first).toContain('BEGIN:VTIMEZONE');
    expect(line(first, 'UID')).toBe(`UID:${apt.id}@property-service`);
    expect(line(first, 'SEQUENCE')).toBe('SEQUENCE:0');
    expect(line(first, 'DTSTART')).toBe('DTSTART;TZID=Europe/Berlin:20261215T100000');
    expect(line(first, 'DTEND')).toBe('DTEND;TZID=Europe/Berlin:20261215T110000');
    expect(line(first, 'METHOD')).toBe('METHOD:REQUEST');

    await act(apt.id, 'reschedule', { starts_at: '2026-12-16T09:30:00Z', ends_at: '2026-12-16T10:30:00Z' });
    const moved = await ics(apt.id);
    expect(line(moved, 'UID')).toBe(`UID:${apt.id}@property-service`);
    expect(line(moved, 'SEQUENCE')).toBe('SEQUENCE:1');
    expect(line(moved, 'DTSTART')).toBe('DTSTART;TZID=Europe/Berlin:20261216T103000');

    await act(apt.id, 'cancel', { by: 'agent', reason: 'other' });
    const cancelled = await ics(apt.id);
    expect(line(cancelled, 'METHOD')).toBe('METHOD:CANCEL');
    expect(line(cancelled, 'STATUS')).toBe('STATUS:CANCELLED');
    expect(line(cancelled, 'UID')).toBe(`UID:${apt.id}@property-service`);
    expect(line(cancelled, 'SEQUENCE')).toBe('SEQUENCE:2');
  });

  it("writes the times in the account's time zone once it is changed", async () => {
    const apt = await book(await newInquiry(), { starts_at: '2026-12-17T15:00:00Z', ends_at: '2026-12-17T16:00:00Z' });
    await ctx.db.prisma.account.update({
      where: { id: ctx.tenant.accountId },
      data: { time_zone: 'America/New_York' },
    });
    try {
      const text = await ics(apt.id);
      expect(line(text, 'DTSTART')).toBe('DTSTART;TZID=America/New_York:20261217T100000');
      expect(text).toContain('TZID:America/New_York');
      expect((await ctx.send('GET', `/v1/appointments/${apt.id}`)).json().time_zone).toBe('America/New_York');
    } finally {
      await ctx.db.prisma.account.update({ where: { id: ctx.tenant.accountId }, data: { time_zone: 'Europe/Berlin' } });
    }
  });

  it('names the full address as LOCATION, escaped per RFC 5545, whatever the publication precision', async () => {
    const at = (address: Record<string, unknown>) =>
      activeProperty(ctx, ctx.tenant.key, { address: { postal_code: '10115', city: 'Berlin-Mitte', ...address } });
    const location = async (address: Record<string, unknown>) =>
      line(await ics((await book(await newInquiry(await at(address)))).id), 'LOCATION');

    // the addition tells the visitor where to ring; `neighborhood` hides the street only from listings
    expect(await location({ street: 'Hauptstraße 5, Hinterhaus', location_precision: 'neighborhood' })).toBe(
      'LOCATION:Hauptstraße 5\\, Hinterhaus\\, 10115 Berlin-Mitte',
    );
    expect(await location({ street: 'Am Markt', house_number: '3-5' })).toBe(
      'LOCATION:Am Markt 3-5\\, 10115 Berlin-Mitte',
    );
    expect(await location({ street: 'Hof; Eingang B\\C 2' })).toBe(
      'LOCATION:Hof\\; Eingang B\\\\C 2\\, 10115 Berlin-Mitte',
    );
    expect(await location({})).toBe('LOCATION:10115 Berlin-Mitte');
  });

  it("answers another account's appointment with 404", async () => {
    const apt = await book(await newInquiry());
    expect((await ctx.send('GET', `/v1/appointments/${apt.id}/ics`, undefined, ctx.other.key)).statusCode).toBe(404);
  });
});

describe('GET /v1/appointments', () => {
  it('filters by property, status and start time, and shows only the account’s own', async () => {
    const property = await activeProperty(ctx);
    const a = await book(await newInquiry(property), {
      starts_at: '2027-01-05T09:00:00Z',
      ends_at: '2027-01-05T10:00:00Z',
    });
    const b = await book(await newInquiry(property), {
      starts_at: '2027-01-06T09:00:00Z',
      ends_at: '2027-01-06T10:00:00Z',
    });
    const c = await book(await newInquiry(property), {
      starts_at: '2027-01-07T09:00:00Z',
      ends_at: '2027-01-07T10:00:00Z',
    });
    await act(b.id, 'confirm', { by: 'agent' });
    const theirProperty = await activeProperty(ctx, ctx.other.key);
    const theirs = await book((await createInquiry(ctx, theirProperty, { key: ctx.other.key })).id, {}, ctx.other.key);

    const ids = async (query: string, key = ctx.tenant.key) => {
      const res = await ctx.send('GET', `/v1/appointments?limit=100&${query}`, undefined, key);
      expect(res.statusCode).toBe(200);
      return (res.json().data as { id: string }[]).map((x) => x.id).sort();
    };
    expect(await ids(`property_id=${property}`)).toEqual([a.id, b.id, c.id].sort());
    expect(await ids(`property_id=${property}&status=confirmed`)).toEqual([b.id]);
    expect(await ids(`property_id=${property}&status=proposed`)).toEqual([a.id, c.id].sort());
    expect(await ids(`property_id=${property}&from=2027-01-06T09:00:00Z`)).toEqual([b.id, c.id].sort());
    expect(await ids(`property_id=${property}&to=2027-01-06T09:00:00Z`)).toEqual([a.id]);
    expect(await ids(`from=2027-01-06T00:00:00%2B01:00&to=2027-01-07T00:00:00%2B01:00`)).toEqual([b.id]);
    expect(await ids(`property_id=${theirProperty}`)).toEqual([]);
    expect(await ids('')).not.toContain(theirs.id);
    expect(await ids('', ctx.other.key)).toEqual([theirs.id]);
    expect((await ctx.send('GET', `/v1/appointments/${theirs.id}`)).statusCode).toBe(404);
    expect((await ctx.send('GET', '/v1/appointments?status=booked')).statusCode).toBe(422);
    expect((await ctx.send('GET', '/v1/appointments?from=tomorrow')).statusCode).toBe(422);
  });

  it('pages newest first', async () => {
    const property = await activeProperty(ctx);
    const made = [];
    for (let i = 0; i < 3; i++) {
      ctx.clock.now = new Date(NOW.getTime() + i * 1000);
      made.push((await book(await newInquiry(property))).id);
    }
    ctx.clock.now = NOW;
    const first = (await ctx.send('GET', `/v1/appointments?property_id=${property}&limit=2`)).json();
    expect(first.data.map((x: { id: string }) => x.id)).toEqual([made[2], made[1]]);
    const second = (
      await ctx.send(
        'GET',
        `/v1/appointments?property_id=${property}&limit=2&cursor=${encodeURIComponent(first.page.next_cursor)}`,
      )
    ).json();
    expect(second.data.map((x: { id: string }) => x.id)).toEqual([made[0]]);
  });
});
