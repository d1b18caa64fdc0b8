import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileHeld } from '@platform/testkit';
import { endViewingsOfForgotten } from '../src/appointments/index.js';
import { anonymiseExpired } from '../src/leads/retention/index.js';
import { activeProperty, createInquiry, eventData, startPropertyApp, type PropertyTestContext } from './helpers.js';
import { consentRequests, websiteConsent } from './consent-helpers.js';

let ctx: PropertyTestContext;
let api: ReturnType<typeof consentRequests>;
beforeAll(async () => {
  ctx = await startPropertyApp();
  api = consentRequests(ctx);
});
afterAll(() => ctx.close());

/** The einwilligung of a prospect created when the test clock stands in 2020. */
const in2019 = { zweck: 'Kontakt zu Angeboten', erteilt_am: '2019-12-01T10:00:00Z' };

describe('restriction (Art. 18) and objection (Art. 21)', () => {
  it('restricts and lifts, each once with its event', async () => {
    ctx.clock.now = new Date('2026-11-15T10:00:00Z');
    const { id } = await api.createProspect('Eingeschraenkt');
    const restricted = await ctx.send('POST', `/leads/v1/interessenten/${id}/einschraenkung`);
    expect(restricted.statusCode).toBe(200);
    expect(restricted.json().eingeschraenkt_seit).toBe('2026-11-15T10:00:00.000Z');
    await ctx.send('POST', `/leads/v1/interessenten/${id}/einschraenkung`);
    expect((await eventData(ctx, 'prospect.restricted')).filter((d) => d.interessent_id === id)).toEqual([
      { interessent_id: id },
    ]);
    const lifted = await ctx.send('DELETE', `/leads/v1/interessenten/${id}/einschraenkung`);
    expect(lifted.json().eingeschraenkt_seit).toBeNull();
    await ctx.send('DELETE', `/leads/v1/interessenten/${id}/einschraenkung`);
    expect((await eventData(ctx, 'prospect.restriction_lifted')).filter((d) => d.interessent_id === id)).toHaveLength(
      1,
    );
  });

  it('an objection withdraws the marketing consents with their events and refuses new marketing consent', async () => {
    ctx.clock.now = new Date('2026-11-16T10:00:00Z');
    const { id } = await api.createProspect('Widerspruch');
    await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen`, { ...websiteConsent, double_opt_in: false });
    const before = await api.consents(id);

    const objected = await ctx.send('POST', `/leads/v1/interessenten/${id}/widerspruch`);
    expect(objected.statusCode).toBe(200);
    expect(objected.json()).toMatchObject({ widerspruch_seit: '2026-11-16T10:00:00.000Z', einwilligung: null });
    const ids = before.map((c) => c.id).sort();
    expect((await eventData(ctx, 'prospect.objected')).filter((d) => d.interessent_id === id)).toEqual([
      { interessent_id: id, einwilligung_ids: ids },
    ]);
    expect(
      (await eventData(ctx, 'consent.withdrawn'))
        .filter((d) => d.interessent_id === id)
        .map((d) => d.einwilligung_id)
        .sort(),
    ).toEqual(ids);
    expect((await api.consents(id)).every((c) => c.widerrufen_am === '2026-11-16T10:00:00.000Z')).toBe(true);

    const refused = await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen`, websiteConsent);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('widersprochen');
    const patch = await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, {
      einwilligung: { zweck: 'Neu', erteilt_am: '2026-11-16T11:00:00Z' },
    });
    expect(patch.statusCode).toBe(409);
    const contact = await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen`, {
      ...websiteConsent,
      zweck: 'kontaktaufnahme',
    });
    expect(contact.statusCode).toBe(201);
    await ctx.send('POST', `/leads/v1/interessenten/${id}/widerspruch`);
    expect((await eventData(ctx, 'prospect.objected')).filter((d) => d.interessent_id === id)).toHaveLength(1);
  });
});

describe('anonymisation', () => {
  it('deletes the consent records and clears restriction and objection with the personal data', async () => {
    ctx.clock.now = new Date('2020-01-10T12:00:00Z'); // kept until 2020-07-08
    const { id } = await api.createProspect('Verjaehrt', ctx.tenant.key, in2019);
    // given before the clock's now: a consent dated in the future is refused (422)
    await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen`, {
      ...websiteConsent,
      erteilt_am: '2020-01-10T11:00:00Z',
      zweck_text: 'Angebote fuer Verjaehrt',
    });
    await ctx.send('POST', `/leads/v1/interessenten/${id}/einschraenkung`);
    await ctx.send('POST', `/leads/v1/interessenten/${id}/widerspruch`);
    expect(await ctx.db.prisma.prospectConsent.count({ where: { prospect_id: id } })).toBe(2);

    expect(await anonymiseExpired(ctx.db.prisma, new Date('2020-07-10T03:00:00Z'), endViewingsOfForgotten)).toBe(1);
    expect(await ctx.db.prisma.prospectConsent.count({ where: { prospect_id: id } })).toBe(0);
    expect(await api.consents(id)).toEqual([]);
    expect(await api.prospect(id)).toMatchObject({
      anonymisiert: true,
      einwilligung: null,
      eingeschraenkt_seit: null,
      widerspruch_seit: null,
    });
  });
});

describe('anonymisation racing a new consent', () => {
  it('removes a consent committed while it waited on the prospect', async () => {
    ctx.clock.now = new Date('2020-01-10T12:00:00Z');
    const { id } = await api.createProspect('Gleichzeitig', ctx.tenant.key, in2019);
    const { result, waited } = await whileHeld(
      ctx.db,
      async (tx) => {
        // As the consent service writes one: the prospect's row locked, then the record inserted.
        await tx.$queryRawUnsafe('SELECT id FROM prospects WHERE id = $1 FOR UPDATE', id);
        await tx.$executeRawUnsafe(
          `INSERT INTO prospect_consents (id, account_id, prospect_id, purpose, wording, source, requires_confirmation, given_at, created_at)
           SELECT 'ein_race_' || id, account_id, id, 'marketing', 'Gleichzeitig erteilt', 'phone', false, now(), now()
           FROM prospects WHERE id = $1`,
          id,
        );
      },
      () => anonymiseExpired(ctx.db.prisma, new Date('2020-07-10T03:00:00Z'), endViewingsOfForgotten),
    );
    expect(waited).toBe(1);
    expect(result).toBeGreaterThanOrEqual(1);
    expect(await ctx.db.prisma.prospectConsent.count({ where: { prospect_id: id } })).toBe(0);
  });
});

describe('restriction and viewings (Art. 18)', () => {
  it('a restricted prospect gets no new viewing appointment and no new time (409); one booked before can be cancelled', async () => {
    ctx.clock.now = new Date();
    const propertyId = await activeProperty(ctx);
    const inquiry = await createInquiry(ctx, propertyId);
    await ctx.send('POST', `/leads/v1/interessenten/${inquiry.prospectId}/einschraenkung`);
    const start = new Date(Date.now() + 3 * 86_400_000);
    const time = { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + 3_600_000).toISOString() };

    const refused = await ctx.send('POST', '/v1/appointments', { inquiry_id: inquiry.id, ...time });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'conflict', message: expect.stringContaining('restricted') });
    expect(await ctx.db.prisma.appointment.count({ where: { prospect_id: inquiry.prospectId } })).toBe(0);

    await ctx.send('DELETE', `/leads/v1/interessenten/${inquiry.prospectId}/einschraenkung`);
    const booked = await ctx.send('POST', '/v1/appointments', { inquiry_id: inquiry.id, ...time });
    expect(booked.statusCode).toBe(201);

    // booked before the restriction: it stays, can be cancelled, but gets no new time
    await ctx.send('POST', `/leads/v1/interessenten/${inquiry.prospectId}/einschraenkung`);
    const later = new Date(start.getTime() + 86_400_000);
    const moved = await ctx.send('POST', `/v1/appointments/${booked.json().id}/reschedule`, {
      starts_at: later.toISOString(),
      ends_at: new Date(later.getTime() + 3_600_000).toISOString(),
    });
    expect(moved.statusCode).toBe(409);
    expect((await ctx.send('GET', `/v1/appointments/${booked.json().id}`)).json()).toMatchObject({
      status: 'proposed',
      starts_at: time.starts_at,
    });
    const cancelled = await ctx.send('POST', `/v1/appointments/${booked.json().id}/cancel`, {
      by: 'agent',
      reason: 'other',
    });
    expect(cancelled.statusCode).toBe(200);
  });
});
