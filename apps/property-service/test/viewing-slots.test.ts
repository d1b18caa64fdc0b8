import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileHeld } from '@platform/testkit';
import { activeProperty, createInquiry, eventData, startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let propertyId: string;

const NOW = new Date('2026-11-20T10:00:00Z');
let hour = 0;
/** A fresh hour-long time in December, so that fixtures never clash. */
const nextTime = () => {
  const start = new Date(Date.UTC(2026, 11, 1, 8) + hour++ * 2 * 3600_000);
  return { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + 3600_000).toISOString() };
};

type Slot = {
  id: string;
  capacity: number;
  booked: number;
  status: string;
  starts_at: string;
  ends_at: string;
} & Record<string, unknown>;
type Appointment = { id: string; inquiry_id: string; slot_id: string | null; status: string } & Record<string, unknown>;

async function createSlot(property: string, body: Record<string, unknown> = {}, key = ctx.tenant.key): Promise<Slot> {
  const res = await ctx.send(
    'POST',
    `/v1/properties/${property}/viewing-slots`,
    { ...nextTime(), capacity: 3, ...body },
    key,
  );
  if (res.statusCode !== 201) throw new Error(`slot not created: ${res.statusCode} ${res.body}`);
  return res.json();
}
const allocate = async (slotId: string, key = ctx.tenant.key) => {
  const res = await ctx.send('POST', `/v1/viewing-slots/${slotId}/allocate`, undefined, key);
  expect(res.statusCode).toBe(200);
  return res.json().data as Appointment[];
};

/** Hand-made scores: the inquiry's score, knockout and arrival time set directly, so the expected order is known. */
async function score(inquiryId: string, value: number, options: { knockedOut?: boolean; createdAt?: Date } = {}) {
  await ctx.db.prisma.$executeRawUnsafe(
    `UPDATE inquiries SET score = $2, score_details = jsonb_set(score_details, '{ausgeschlossen}', to_jsonb($3::boolean)), created_at = COALESCE($4, created_at) WHERE id = $1`,
    inquiryId,
    value,
    options.knockedOut ?? false,
    options.createdAt ?? null,
  );
}
/** A new prospect's inquiry for the property with the hand-made score. */
async function scored(
  property: string,
  value: number,
  options: { knockedOut?: boolean; createdAt?: Date; prospectId?: string } = {},
) {
  const inquiry = await createInquiry(ctx, property, { prospectId: options.prospectId });
  await score(inquiry.id, value, options);
  return inquiry;
}

beforeAll(async () => {
  ctx = await startPropertyApp();
  ctx.clock.now = NOW;
  propertyId = await activeProperty(ctx);
});
afterAll(() => ctx.close());

describe('viewing slots', () => {
  it('creates, gets and lists a slot of a property', async () => {
    const time = nextTime();
    const res = await ctx.send('POST', `/v1/properties/${propertyId}/viewing-slots`, {
      ...time,
      capacity: 4,
      host: 'Sam Slot',
    });
    expect(res.statusCode).toBe(201);
    const slot = res.json();
    expect(slot).toEqual({
      id: expect.any(String),
      property_id: propertyId,
      host: 'Sam Slot',
      capacity: 4,
      booked: 0,
      status: 'open',
      ...time,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    expect((await ctx.send('GET', `/v1/viewing-slots/${slot.id}`)).json()).toEqual(slot);
    const list = await ctx.send('GET', `/v1/properties/${propertyId}/viewing-slots?limit=100`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toContainEqual(slot);
  });

  it.each([
    ['no capacity', { capacity: 0 }],
    ['a time in the past', { starts_at: '2026-11-19T10:00:00Z', ends_at: '2026-11-19T11:00:00Z' }],
    ['an end before the start', { starts_at: '2026-12-20T10:00:00Z', ends_at: '2026-12-20T09:00:00Z' }],
    ['more than 8 hours', { starts_at: '2026-12-20T08:00:00Z', ends_at: '2026-12-20T17:00:00Z' }],
  ])('refuses %s (422)', async (_name, body) => {
    const res = await ctx.send('POST', `/v1/properties/${propertyId}/viewing-slots`, {
      ...nextTime(),
      capacity: 2,
      ...body,
    });
    expect(res.statusCode).toBe(422);
  });

  it('refuses a sold property (409) and answers another account’s property and slot with 404', async () => {
    const sold = await activeProperty(ctx);
    await ctx.send('POST', `/v1/properties/${sold}/mark-sold`);
    const res = await ctx.send('POST', `/v1/properties/${sold}/viewing-slots`, { ...nextTime(), capacity: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict');

    const theirProperty = await activeProperty(ctx, ctx.other.key);
    const theirSlot = await createSlot(theirProperty, {}, ctx.other.key);
    expect(
      (await ctx.send('POST', `/v1/properties/${theirProperty}/viewing-slots`, { ...nextTime(), capacity: 1 }))
        .statusCode,
    ).toBe(404);
    expect((await ctx.send('GET', `/v1/properties/${theirProperty}/viewing-slots`)).statusCode).toBe(404);
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/cancel'],
      ['POST', '/allocate'],
    ] as const) {
      expect((await ctx.send(method, `/v1/viewing-slots/${theirSlot.id}${suffix}`)).statusCode).toBe(404);
    }
    expect((await ctx.send('GET', `/v1/viewing-slots/${theirSlot.id}`, undefined, ctx.other.key)).json().status).toBe(
      'open',
    );
  });

  it("refuses a host's overlapping slot with 409 naming it; other hosts, no host and a cancelled slot's time are fine", async () => {
    const time = nextTime();
    const first = await createSlot(propertyId, { ...time, host: 'Olga Overlap' });
    const later = {
      starts_at: new Date(new Date(time.starts_at).getTime() + 1800_000).toISOString(),
      ends_at: new Date(new Date(time.ends_at).getTime() + 1800_000).toISOString(),
    };
    const res = await ctx.send('POST', `/v1/properties/${propertyId}/viewing-slots`, {
      ...later,
      capacity: 1,
      host: 'Olga Overlap',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'conflict',
      details: [{ field: 'host', reason: 'overlaps', conflicting_id: first.id }],
    });
    await createSlot(propertyId, { ...later, host: 'Peter Other' });
    await createSlot(propertyId, later);
    expect((await ctx.send('POST', `/v1/viewing-slots/${first.id}/cancel`)).statusCode).toBe(200);
    await createSlot(propertyId, { ...later, host: 'Olga Overlap' });
  });

  it('cancels a slot and its open appointments (agent, agent_unavailable), each with its event; again is 409', async () => {
    const property = await activeProperty(ctx);
    const slot = await createSlot(property, { capacity: 2 });
    await scored(property, 80);
    await scored(property, 70);
    const invited = await allocate(slot.id);
    expect(invited).toHaveLength(2);
    await ctx.send('POST', `/v1/appointments/${invited[1]!.id}/confirm`, { by: 'prospect' });
    ctx.clock.now = new Date(NOW.getTime() + 60_000);

    const res = await ctx.send('POST', `/v1/viewing-slots/${slot.id}/cancel`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', booked: 0, updated_at: ctx.clock.now.toISOString() });
    for (const apt of invited) {
      expect((await ctx.send('GET', `/v1/appointments/${apt.id}`)).json()).toMatchObject({
        status: 'cancelled',
        cancelled_by: 'agent',
        cancel_reason: 'agent_unavailable',
      });
      expect((await eventData(ctx, 'appointment.cancelled')).filter((d) => d.appointment_id === apt.id)).toEqual([
        {
          appointment_id: apt.id,
          property_id: property,
          starts_at: slot.starts_at,
          ends_at: slot.ends_at,
          cancelled_by: 'agent',
          reason: 'agent_unavailable',
        },
      ]);
    }
    const again = await ctx.send('POST', `/v1/viewing-slots/${slot.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invalid_transition');
    const allocation = await ctx.send('POST', `/v1/viewing-slots/${slot.id}/allocate`);
    expect(allocation.statusCode).toBe(409);
    ctx.clock.now = NOW;
  });
});

describe('POST /v1/viewing-slots/{id}/allocate', () => {
  it('invites the top scores into the places (ties: the earlier inquiry), skipping knockouts, the already invited or booked, the busy, the anonymised and the restricted', async () => {
    const property = await activeProperty(ctx);
    const other = await activeProperty(ctx);
    const slot = await createSlot(property, { capacity: 3, host: 'Tom Top' });
    const base = NOW.getTime() - 86_400_000;

    const a = await scored(property, 90);
    const c = await scored(property, 70, { createdAt: new Date(base + 2000) }); // created first, but arrived later than b
    const b = await scored(property, 70, { createdAt: new Date(base + 1000) });
    const knockedOut = await scored(property, 99, { knockedOut: true });
    const twice = await scored(property, 85);
    const twiceAgain = await scored(property, 60, { prospectId: twice.prospectId }); // the same prospect: one place only
    const booked = await scored(property, 98); // already has a viewing of this property
    await ctx.send('POST', '/v1/appointments', { inquiry_id: booked.id, ...nextTime() });
    const busy = await scored(property, 97); // has another viewing at the slot's time
    await ctx.send('POST', '/v1/appointments', {
      inquiry_id: (await createInquiry(ctx, other, { prospectId: busy.prospectId })).id,
      starts_at: slot.starts_at,
      ends_at: slot.ends_at,
    });
    const declined = await scored(property, 96); // declined a viewing of this property
    const declinedApt = (await ctx.send('POST', '/v1/appointments', { inquiry_id: declined.id, ...nextTime() })).json();
    await ctx.send('POST', `/v1/appointments/${declinedApt.id}/cancel`, {
      by: 'prospect',
      reason: 'prospect_declined',
    });
    const erased = await scored(property, 95);
    expect((await ctx.send('POST', `/leads/v1/interessenten/${erased.prospectId}/loeschung`)).statusCode).toBe(200);
    const restricted = await scored(property, 94);
    expect((await ctx.send('POST', `/leads/v1/interessenten/${restricted.prospectId}/einschraenkung`)).statusCode).toBe(
      200,
    );
    const low = await scored(property, 10);

    ctx.clock.now = new Date(NOW.getTime() + 60_000);
    const invited = await allocate(slot.id);
    expect(invited.map((apt) => apt.inquiry_id)).toEqual([a.id, twice.id, b.id]);
    for (const apt of invited) {
      expect(apt).toMatchObject({
        slot_id: slot.id,
        property_id: property,
        host: 'Tom Top',
        status: 'proposed',
        starts_at: slot.starts_at,
        ends_at: slot.ends_at,
        sequence: 0,
      });
    }
    expect((await ctx.send('GET', `/v1/viewing-slots/${slot.id}`)).json().booked).toBe(3);

    // Full: nothing more.
    expect(await allocate(slot.id)).toEqual([]);

    // A place becomes free: the next best that is still eligible (a declined, so not a again).
    await ctx.send('POST', `/v1/appointments/${invited[0]!.id}/cancel`, {
      by: 'prospect',
      reason: 'prospect_declined',
    });
    const next = await allocate(slot.id);
    expect(next.map((apt) => apt.inquiry_id)).toEqual([c.id]);
    expect(await allocate(slot.id)).toEqual([]);
    // An agent's cancellation does not exclude the prospect from being invited again.
    await ctx.send('POST', `/v1/appointments/${next[0]!.id}/cancel`, { by: 'agent', reason: 'agent_unavailable' });
    expect((await allocate(slot.id)).map((apt) => apt.inquiry_id)).toEqual([c.id]);

    const untouched = [knockedOut, twiceAgain, booked, busy, declined, erased, restricted, low];
    expect(
      await ctx.db.prisma.appointment.count({
        where: { slot_id: slot.id, inquiry_id: { in: untouched.map((i) => i.id) } },
      }),
    ).toBe(0);
    ctx.clock.now = NOW;
  });

  it('fills only the free places and stops when the inquiries run out', async () => {
    const property = await activeProperty(ctx);
    const slot = await createSlot(property, { capacity: 3 });
    const first = await scored(property, 50);
    expect((await allocate(slot.id)).map((apt) => apt.inquiry_id)).toEqual([first.id]);
    const second = await scored(property, 40);
    const third = await scored(property, 60);
    await scored(property, 70);
    expect((await allocate(slot.id)).map((apt) => apt.inquiry_id).sort()).toHaveLength(2);
    expect(await ctx.db.prisma.appointment.count({ where: { slot_id: slot.id, status: 'proposed' } })).toBe(3);
    const invited = (await ctx.db.prisma.appointment.findMany({ where: { slot_id: slot.id } })).map(
      (apt) => apt.inquiry_id,
    );
    expect(invited).toContain(third.id);
    expect(invited).not.toContain(second.id);
  });

  it('never exceeds the capacity when allocations of one slot run concurrently', async () => {
    const property = await activeProperty(ctx);
    const slot = await createSlot(property, { capacity: 3, host: 'Conny Concurrent' });
    for (let i = 0; i < 8; i++) await scored(property, 50 + i);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => ctx.send('POST', `/v1/viewing-slots/${slot.id}/allocate`)),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(results.flatMap((r) => r.json().data)).toHaveLength(3);
    expect(
      await ctx.db.prisma.appointment.count({ where: { slot_id: slot.id, status: { in: ['proposed', 'confirmed'] } } }),
    ).toBe(3);
    expect((await ctx.send('GET', `/v1/viewing-slots/${slot.id}`)).json()).toMatchObject({ capacity: 3, booked: 3 });
  });

  it('serialises allocations of one slot on its row: both wait for a held slot, then fill exactly the capacity', async () => {
    const property = await activeProperty(ctx);
    const slot = await createSlot(property, { capacity: 2 });
    for (let i = 0; i < 5; i++) await scored(property, 40 + i);
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRawUnsafe('SELECT id FROM viewing_slots WHERE id = $1 FOR UPDATE', slot.id),
      () => Promise.all([allocate(slot.id), allocate(slot.id)]),
      2,
    );
    expect(waited).toBe(2);
    expect(result.flat()).toHaveLength(2);
    expect(result.map((data) => data.length).sort()).toEqual([0, 2]);
  });

  it('waits for an erasure in progress and then leaves its prospect out', async () => {
    const property = await activeProperty(ctx);
    const slot = await createSlot(property, { capacity: 2 });
    const erasing = await scored(property, 90);
    const next = await scored(property, 80);
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.prospect.update({ where: { id: erasing.prospectId }, data: { anonymised_at: NOW } }), // committed once the allocation waits
      () => allocate(slot.id),
    );
    expect(waited).toBe(1);
    expect(result.map((apt) => apt.inquiry_id)).toEqual([next.id]);
  });

  it('refuses a slot that has begun (409)', async () => {
    const property = await activeProperty(ctx);
    const slot = await createSlot(property, { capacity: 1 });
    await scored(property, 50);
    ctx.clock.now = new Date(slot.starts_at);
    const res = await ctx.send('POST', `/v1/viewing-slots/${slot.id}/allocate`);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict');
    ctx.clock.now = NOW;
  });
});

describe("a host's slots and single appointments", () => {
  it("refuses a single appointment during the host's open slot, and a slot during the host's single appointment (409 with the id)", async () => {
    const property = await activeProperty(ctx);
    const slotTime = nextTime();
    const slot = await createSlot(property, { ...slotTime, host: 'Hanna Host' });
    const inquiry = await createInquiry(ctx, property);
    const single = await ctx.send('POST', '/v1/appointments', {
      inquiry_id: inquiry.id,
      ...slotTime,
      host: 'Hanna Host',
    });
    expect(single.statusCode).toBe(409);
    expect(single.json().details).toEqual([{ field: 'host', reason: 'overlaps', conflicting_id: slot.id }]);
    expect(
      (await ctx.send('POST', '/v1/appointments', { inquiry_id: inquiry.id, ...slotTime, host: 'Other Host' }))
        .statusCode,
    ).toBe(201);

    const singleTime = nextTime();
    const booked = await ctx.send('POST', '/v1/appointments', {
      inquiry_id: (await createInquiry(ctx, property)).id,
      ...singleTime,
      host: 'Hanna Host',
    });
    expect(booked.statusCode).toBe(201);
    const clash = await ctx.send('POST', `/v1/properties/${property}/viewing-slots`, {
      ...singleTime,
      capacity: 2,
      host: 'Hanna Host',
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().details).toEqual([{ field: 'host', reason: 'overlaps', conflicting_id: booked.json().id }]);
    // Once the slot is cancelled, the time is free for a single appointment.
    expect((await ctx.send('POST', `/v1/viewing-slots/${slot.id}/cancel`)).statusCode).toBe(200);
    expect(
      (
        await ctx.send('POST', '/v1/appointments', {
          inquiry_id: (await createInquiry(ctx, property)).id,
          ...slotTime,
          host: 'Hanna Host',
        })
      ).statusCode,
    ).toBe(201);
  });
});
