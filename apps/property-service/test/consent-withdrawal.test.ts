import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileHeld } from '@platform/testkit';
import { consentOf, consentsOf, syncConsentMirror, withdrawStanding } from '../src/leads/consent/consent-sql.js';
import { eventData, startPropertyApp, type PropertyTestContext } from './helpers.js';
import { consentRequests, websiteConsent } from './consent-helpers.js';

let ctx: PropertyTestContext;
let api: ReturnType<typeof consentRequests>;
beforeAll(async () => {
  ctx = await startPropertyApp();
  api = consentRequests(ctx);
});
afterAll(() => ctx.close());

const withdrawnEvents = async (prospectId: string) =>
  (await eventData(ctx, 'consent.withdrawn')).filter((d) => d.interessent_id === prospectId);

describe('withdrawing a consent (Art. 7(3))', () => {
  it('withdraws now with one event; withdrawing again answers the first withdrawal and sends nothing', async () => {
    ctx.clock.now = new Date('2026-11-10T09:00:00Z');
    const { id } = await api.createProspect('Widerruf');
    const [legacy] = await api.consents(id);
    const withdrawn = await api.withdraw(id, legacy.id);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json()).toMatchObject({ widerrufen_am: '2026-11-10T09:00:00.000Z', gueltig: false });
    expect((await api.prospect(id)).einwilligung).toBeNull();

    ctx.clock.now = new Date('2026-11-10T10:00:00Z');
    const again = await api.withdraw(id, legacy.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().widerrufen_am).toBe('2026-11-10T09:00:00.000Z');
    expect(await withdrawnEvents(id)).toEqual([{ einwilligung_id: legacy.id, interessent_id: id, zweck: 'marketing' }]);
    // a withdrawn consent cannot be confirmed
    const late = await api.confirm(id, legacy.id);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('konflikt');
  });

  it('a marketing withdrawal ends every standing marketing consent, each with its event; kontaktaufnahme stays', async () => {
    ctx.clock.now = new Date('2026-11-11T08:00:00Z');
    const { id } = await api.createProspect('Alle');
    const [legacy] = await api.consents(id);
    ctx.clock.now = new Date('2026-11-11T08:10:00Z');
    const phone = (
      await api.give(id, { ...websiteConsent, quelle: 'telefon', erteilt_am: '2026-11-11T08:00:00Z' })
    ).json();
    ctx.clock.now = new Date('2026-11-11T08:20:00Z');
    const awaiting = (await api.give(id, { ...websiteConsent, erteilt_am: '2026-11-11T08:15:00Z' })).json();
    ctx.clock.now = new Date('2026-11-11T08:30:00Z');
    const contact = (await api.give(id, { ...websiteConsent, zweck: 'kontaktaufnahme', quelle: 'telefon' })).json();
    expect([phone.gueltig, awaiting.gueltig, contact.gueltig]).toEqual([true, false, true]);

    ctx.clock.now = new Date('2026-11-11T09:00:00Z');
    // the newest valid one withdrawn: the older valid one must not keep the prospect reachable
    const res = await api.withdraw(id, phone.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: phone.id, widerrufen_am: '2026-11-11T09:00:00.000Z' });
    const after = new Map((await api.consents(id)).map((c) => [c.id, c.widerrufen_am]));
    expect(Object.fromEntries(after)).toEqual({
      [legacy.id]: '2026-11-11T09:00:00.000Z',
      [phone.id]: '2026-11-11T09:00:00.000Z',
      [awaiting.id]: '2026-11-11T09:00:00.000Z',
      [contact.id]: null,
    });
    expect((await api.prospect(id)).einwilligung).toBeNull();
    const [row] = await ctx.db.prisma.prospect.findMany({ where: { id } });
    expect(row.marketing_consent_valid).toBe(false);
    // one event per withdrawn record, as an objection sends them
    expect((await withdrawnEvents(id)).map((d) => d.einwilligung_id).sort()).toEqual(
      [legacy.id, phone.id, awaiting.id].sort(),
    );
    // the one awaiting its double opt-in cannot be confirmed into validity afterwards
    expect((await api.confirm(id, awaiting.id)).statusCode).toBe(409);
    // withdrawing another of them now is a repetition: its own withdrawal, no event
    expect((await api.withdraw(id, legacy.id)).json().widerrufen_am).toBe('2026-11-11T09:00:00.000Z');
    expect(await withdrawnEvents(id)).toHaveLength(3);
    // a new consent afterwards counts again
    ctx.clock.now = new Date('2026-11-11T10:00:00Z');
    await api.give(id, { ...websiteConsent, quelle: 'persoenlich', erteilt_am: '2026-11-11T09:55:00Z' });
    expect((await api.prospect(id)).einwilligung).toMatchObject({ erteilt_am: '2026-11-11T09:55:00.000Z' });
  });

  it('two withdrawals at once: both answer the one withdrawal, one event (the prospect row lock orders them)', async () => {
    ctx.clock.now = new Date('2026-11-10T11:00:00Z');
    const { id } = await api.createProspect('Gleichzeitig');
    const [legacy] = await api.consents(id);
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRawUnsafe('SELECT id FROM prospects WHERE id = $1 FOR UPDATE', id),
      () => Promise.all([api.withdraw(id, legacy.id), api.withdraw(id, legacy.id)]),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => [r.statusCode, r.json().widerrufen_am])).toEqual([
      [200, '2026-11-10T11:00:00.000Z'],
      [200, '2026-11-10T11:00:00.000Z'],
    ]);
    expect(await withdrawnEvents(id)).toHaveLength(1);
  });
});

describe('the consent queries are scoped by the account', () => {
  it("never read or change another account's records, even when a caller passes their ids", async () => {
    const theirs = await api.createProspect('Fremdkonto', ctx.other.key);
    const [record] = await api.consents(theirs.id, ctx.other.key);
    const db = ctx.db.prisma;
    const mine = ctx.tenant.accountId;

    expect(await consentsOf(db, mine, theirs.id)).toEqual([]);
    expect(await consentOf(db, mine, theirs.id, record.id)).toBeNull();
    expect(await withdrawStanding(db, mine, theirs.id, 'marketing', new Date())).toEqual([]);
    await db.prospect.updateMany({ where: { id: theirs.id }, data: { marketing_consent_valid: false } });
    await syncConsentMirror(db, mine, theirs.id);
    expect((await db.prospect.findMany({ where: { id: theirs.id } }))[0].marketing_consent_valid).toBe(false);

    // and the owner's own account does reach them
    await syncConsentMirror(db, ctx.other.accountId, theirs.id);
    expect((await db.prospect.findMany({ where: { id: theirs.id } }))[0].marketing_consent_valid).toBe(true);
    expect((await consentsOf(db, ctx.other.accountId, theirs.id)).map((c) => c.id)).toEqual([record.id]);
    expect((await api.consents(theirs.id, ctx.other.key))[0].widerrufen_am).toBeNull();
  });
});
