import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeadsClient, unwrap } from '@platform/client';
import { whileHeld } from '@platform/testkit';
import { endViewingsOfForgotten } from '../src/appointments/index.js';
import { anonymiseExpired } from '../src/leads/retention/index.js';
import { eventData, startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const einwilligung = { zweck: 'Kontakt zu Angeboten', erteilt_am: '2026-11-01T10:00:00Z' };
const websiteConsent = {
  zweck: 'marketing',
  quelle: 'website_formular',
  erteilt_am: '2026-11-10T08:00:00Z',
  textversion: '2026-11',
  zweck_text: 'Newsletter und passende Angebote',
};

const createProspect = async (name = 'Muster', key = ctx.tenant.key, suchprofil?: object) => {
  const res = await ctx.send(
    'POST',
    '/leads/v1/interessenten',
    { nachname: name, email: `${name.toLowerCase()}@example.de`, einwilligung, ...(suchprofil ? { suchprofil } : {}) },
    key,
  );
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; einwilligung: unknown };
};
const consents = async (id: string, key = ctx.tenant.key) =>
  (await ctx.send('GET', `/leads/v1/interessenten/${id}/einwilligungen`, undefined, key)).json().daten as {
    id: string;
    zweck: string;
    gueltig: boolean;
    widerrufen_am: string | null;
    zweck_text: string | null;
    erteilt_am: string;
    angelegt_am: string;
  }[];
const prospect = async (id: string) => (await ctx.send('GET', `/leads/v1/interessenten/${id}`)).json();

describe('consents with their history', () => {
  it("records the prospect's einwilligung as its first marketing consent (documented defaults)", async () => {
    ctx.clock.now = new Date('2026-11-05T09:00:00Z');
    const created = await createProspect('Erster');
    expect(created.einwilligung).toEqual({ zweck: 'Kontakt zu Angeboten', erteilt_am: '2026-11-01T10:00:00.000Z' });
    const [first, ...rest] = await consents(created.id);
    expect(rest).toEqual([]);
    expect(first).toEqual({
      id: expect.stringMatching(/^ein_/),
      interessent_id: created.id,
      zweck: 'marketing',
      zweck_text: 'Kontakt zu Angeboten',
      textversion: null,
      quelle: 'sonstiges',
      double_opt_in: false,
      erteilt_am: '2026-11-01T10:00:00.000Z',
      bestaetigt_am: null,
      widerrufen_am: null,
      gueltig: true,
      angelegt_am: '2026-11-05T09:00:00.000Z',
    });
  });

  it('gives, confirms (double opt-in) and withdraws; the history keeps every record; withdrawing again is harmless', async () => {
    ctx.clock.now = new Date('2026-11-10T08:00:00Z');
    const { id } = await createProspect('Historie');
    const [legacy] = await consents(id);

    ctx.clock.now = new Date('2026-11-10T08:30:00Z');
    const given = await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen`, websiteConsent);
    expect(given.statusCode).toBe(201);
    expect(given.json()).toMatchObject({ quelle: 'website_formular', double_opt_in: true, gueltig: false });
    const web = given.json().id as string;

    ctx.clock.now = new Date('2026-11-10T09:00:00Z');
    const withdrawn = await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen/${legacy.id}/widerruf`);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json()).toMatchObject({ widerrufen_am: '2026-11-10T09:00:00.000Z', gueltig: false });
    // the web consent awaits its confirmation: no valid marketing consent now
    expect((await prospect(id)).einwilligung).toBeNull();

    ctx.clock.now = new Date('2026-11-10T10:00:00Z');
    const again = await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen/${legacy.id}/widerruf`);
    expect(again.statusCode).toBe(200);
    expect(again.json().widerrufen_am).toBe('2026-11-10T09:00:00.000Z');
    expect((await eventData(ctx, 'consent.withdrawn')).filter((d) => d.interessent_id === id)).toEqual([
      { einwilligung_id: legacy.id, interessent_id: id, zweck: 'marketing' },
    ]);

    const confirmed = await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen/${web}/bestaetigung`);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ bestaetigt_am: '2026-11-10T10:00:00.000Z', gueltig: true });
    expect((await prospect(id)).einwilligung).toEqual({
      zweck: 'Newsletter und passende Angebote',
      erteilt_am: '2026-11-10T08:00:00.000Z',
    });

    expect((await consents(id)).map((c) => [c.id, c.gueltig, c.widerrufen_am])).toEqual([
      [legacy.id, false, '2026-11-10T09:00:00.000Z'],
      [web, true, null],
    ]);
    // a withdrawn consent cannot be confirmed
    const late = await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen/${legacy.id}/bestaetigung`);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('konflikt');
  });

  it('two withdrawals at once: both answer the one withdrawal, one event (the prospect row lock orders them)', async () => {
    ctx.clock.now = new Date('2026-11-10T11:00:00Z');
    const { id } = await createProspect('Gleichzeitig');
    const [legacy] = await consents(id);
    const url = `/leads/v1/interessenten/${id}/einwilligungen/${legacy.id}/widerruf`;
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRawUnsafe('SELECT id FROM prospects WHERE id = $1 FOR UPDATE', id),
      () => Promise.all([ctx.send('POST', url), ctx.send('POST', url)]),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => [r.statusCode, r.json().widerrufen_am])).toEqual([
      [200, '2026-11-10T11:00:00.000Z'],
      [200, '2026-11-10T11:00:00.000Z'],
    ]);
    expect((await eventData(ctx, 'consent.withdrawn')).filter((d) => d.interessent_id === id)).toHaveLength(1);
  });

  it('a PATCH of other fields keeps a withdrawn consent withdrawn; a changed einwilligung is a new record', async () => {
    const { id } = await createProspect('Patch');
    const [legacy] = await consents(id);
    await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen/${legacy.id}/widerruf`);
    const patched = await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { vorname: 'Paula' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ vorname: 'Paula', einwilligung: null });

    const renewed = { zweck: 'Erneut erteilt', erteilt_am: '2026-11-12T10:00:00.000Z' };
    const res = await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { einwilligung: renewed });
    expect(res.json().einwilligung).toEqual(renewed);
    expect((await consents(id)).map((c) => c.gueltig)).toEqual([false, true]);
  });

  it('takes the old consent sent again while none is valid as given again; einwilligung null stays refused', async () => {
    const { id } = await createProspect('Zurueck');
    const [legacy] = await consents(id);
    await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen/${legacy.id}/widerruf`);
    expect((await prospect(id)).einwilligung).toBeNull();
    const nulled = await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { einwilligung: null });
    expect(nulled.statusCode).toBe(422);
    expect(nulled.json().details).toEqual([expect.objectContaining({ feld: 'einwilligung' })]);

    const again = await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { einwilligung });
    expect(again.json().einwilligung).toEqual({ ...einwilligung, erteilt_am: '2026-11-01T10:00:00.000Z' });
    // The test clock stands still: both records may have one creation time, so by id, not by order.
    const records = await consents(id);
    expect(records).toHaveLength(2);
    expect(records.find((c) => c.id === legacy.id)?.gueltig).toBe(false);
    expect(records.find((c) => c.id !== legacy.id)?.gueltig).toBe(true);
  });

  it("answers 404 for another account's prospect and for a consent of another prospect, and refuses a bad body in German", async () => {
    const theirs = await createProspect('Fremd', ctx.other.key);
    const [theirConsent] = await consents(theirs.id, ctx.other.key);
    const mine = await createProspect('Eigen');
    expect((await ctx.send('GET', `/leads/v1/interessenten/${theirs.id}/einwilligungen`)).statusCode).toBe(404);
    expect(
      (await ctx.send('POST', `/leads/v1/interessenten/${theirs.id}/einwilligungen`, websiteConsent)).statusCode,
    ).toBe(404);
    const crossed = await ctx.send(
      'POST',
      `/leads/v1/interessenten/${mine.id}/einwilligungen/${theirConsent.id}/widerruf`,
    );
    expect(crossed.statusCode).toBe(404);
    expect((await consents(theirs.id, ctx.other.key))[0].widerrufen_am).toBeNull();

    const bad = await ctx.send('POST', `/leads/v1/interessenten/${mine.id}/einwilligungen`, {
      ...websiteConsent,
      quelle: 'brieftaube',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details).toEqual([expect.objectContaining({ feld: 'quelle' })]);
  });

  it('works through the typed client over real HTTP', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const client = createLeadsClient({ baseUrl: address, apiKey: ctx.tenant.key });
    ctx.clock.now = new Date('2026-11-11T09:00:00Z');
    const { id } = await createProspect('Client');
    ctx.clock.now = new Date('2026-11-11T10:00:00Z');
    const path = { interessentId: id };
    const given = await unwrap(
      client.POST('/leads/v1/interessenten/{interessentId}/einwilligungen', {
        params: { path },
        body: { zweck: 'kontaktaufnahme', quelle: 'telefon', erteilt_am: '2026-11-11T10:00:00Z' },
      }),
    );
    expect(given).toMatchObject({ zweck: 'kontaktaufnahme', double_opt_in: false, gueltig: true });
    const withdrawn = await unwrap(
      client.POST('/leads/v1/interessenten/{interessentId}/einwilligungen/{einwilligungId}/widerruf', {
        params: { path: { ...path, einwilligungId: given.id } },
      }),
    );
    expect(withdrawn.widerrufen_am).not.toBeNull();
    const history = await unwrap(
      client.GET('/leads/v1/interessenten/{interessentId}/einwilligungen', { params: { path } }),
    );
    expect(history.daten.map((c) => [c.zweck, c.gueltig])).toEqual([
      ['marketing', true],
      ['kontaktaufnahme', false],
    ]);
    const restricted = await unwrap(
      client.POST('/leads/v1/interessenten/{interessentId}/einschraenkung', { params: { path } }),
    );
    expect(restricted.eingeschraenkt_seit).not.toBeNull();
  });
});

describe('restriction (Art. 18) and objection (Art. 21)', () => {
  it('restricts and lifts, each once with its event', async () => {
    ctx.clock.now = new Date('2026-11-15T10:00:00Z');
    const { id } = await createProspect('Eingeschraenkt');
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
    const { id } = await createProspect('Widerspruch');
    await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen`, { ...websiteConsent, double_opt_in: false });
    const before = await consents(id);

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
    expect((await consents(id)).every((c) => c.widerrufen_am === '2026-11-16T10:00:00.000Z')).toBe(true);

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
    const { id } = await createProspect('Verjaehrt');
    await ctx.send('POST', `/leads/v1/interessenten/${id}/einwilligungen`, {
      ...websiteConsent,
      zweck_text: 'Angebote fuer Verjaehrt',
    });
    await ctx.send('POST', `/leads/v1/interessenten/${id}/einschraenkung`);
    await ctx.send('POST', `/leads/v1/interessenten/${id}/widerspruch`);
    expect(await ctx.db.prisma.prospectConsent.count({ where: { prospect_id: id } })).toBe(2);

    expect(await anonymiseExpired(ctx.db.prisma, new Date('2020-07-10T03:00:00Z'), endViewingsOfForgotten)).toBe(1);
    expect(await ctx.db.prisma.prospectConsent.count({ where: { prospect_id: id } })).toBe(0);
    expect(await consents(id)).toEqual([]);
    expect(await prospect(id)).toMatchObject({
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
    const { id } = await createProspect('Gleichzeitig');
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

describe('the migration', () => {
  it('gives every prospect that had a consent the record the app writes for it, and the same einwilligung', async () => {
    ctx.clock.now = new Date('2026-11-20T10:00:00Z');
    const { id } = await createProspect('Altbestand');
    const before = { prospect: await prospect(id), consents: await consents(id) };
    const migration = readFileSync(
      new URL('../../../prisma/migrations/20261129040000_prospect_consents/migration.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration
      .slice(migration.indexOf('INSERT INTO "prospect_consents"'))
      .split(';')
      .filter((statement) => statement.trim());
    const rolledBack = new Error('roll back');
    // As before the migration: no records, no valid mirror; then its backfill. Rolled back after, so the other tests keep theirs.
    await ctx.db.prisma
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe('DELETE FROM prospect_consents');
        await tx.$executeRawUnsafe('UPDATE prospects SET marketing_consent_valid = false');
        for (const statement of backfill) await tx.$executeRawUnsafe(statement);
        const [row] = await tx.prospect.findMany({ where: { id } });
        const records = await tx.prospectConsent.findMany({ where: { prospect_id: id } });
        expect(row.marketing_consent_valid).toBe(true);
        expect(records).toHaveLength(1);
        expect(records[0]).toMatchObject({
          id: `ein_${id.slice(4)}`,
          purpose: 'marketing',
          wording: before.consents[0].zweck_text,
          source: 'other',
          requires_confirmation: false,
          given_at: new Date(before.consents[0].erteilt_am),
          created_at: new Date(before.consents[0].angelegt_am),
          confirmed_at: null,
          withdrawn_at: null,
        });
        throw rolledBack;
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
      });
    expect({ prospect: await prospect(id), consents: await consents(id) }).toEqual(before);
  });
});
