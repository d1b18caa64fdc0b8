import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeadsClient, unwrap } from '@platform/client';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';
import { consentRequests, einwilligung, websiteConsent } from './consent-helpers.js';

let ctx: PropertyTestContext;
let api: ReturnType<typeof consentRequests>;
beforeAll(async () => {
  ctx = await startPropertyApp();
  api = consentRequests(ctx);
});
afterAll(() => ctx.close());

describe('consents with their history', () => {
  it("records the prospect's einwilligung as its first marketing consent (documented defaults)", async () => {
    ctx.clock.now = new Date('2026-11-05T09:00:00Z');
    const created = await api.createProspect('Erster');
    expect(created.einwilligung).toEqual({ zweck: 'Kontakt zu Angeboten', erteilt_am: '2026-11-01T10:00:00.000Z' });
    const [first, ...rest] = await api.consents(created.id);
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

  it('gives a double opt-in consent that counts once confirmed; confirming again changes nothing', async () => {
    ctx.clock.now = new Date('2026-11-10T08:00:00Z');
    const { id } = await api.createProspect('Historie');
    const [legacy] = await api.consents(id);

    ctx.clock.now = new Date('2026-11-10T08:30:00Z');
    const given = await api.give(id, websiteConsent);
    expect(given.statusCode).toBe(201);
    expect(given.json()).toMatchObject({ quelle: 'website_formular', double_opt_in: true, gueltig: false });
    const web = given.json().id as string;
    // the older, valid record is what the prospect's einwilligung shows until the new one counts
    expect((await api.prospect(id)).einwilligung).toEqual({ ...einwilligung, erteilt_am: '2026-11-01T10:00:00.000Z' });

    ctx.clock.now = new Date('2026-11-10T10:00:00Z');
    const confirmed = await api.confirm(id, web);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ bestaetigt_am: '2026-11-10T10:00:00.000Z', gueltig: true });
    expect((await api.prospect(id)).einwilligung).toEqual({
      zweck: 'Newsletter und passende Angebote',
      erteilt_am: '2026-11-10T08:00:00.000Z',
    });
    ctx.clock.now = new Date('2026-11-10T11:00:00Z');
    expect((await api.confirm(id, web)).json().bestaetigt_am).toBe('2026-11-10T10:00:00.000Z');
    expect((await api.consents(id)).map((c) => [c.id, c.gueltig])).toEqual([
      [legacy.id, true],
      [web, true],
    ]);
  });

  it("shows a record given without zweck_text as the prospect's einwilligung with zweck 'marketing'", async () => {
    ctx.clock.now = new Date('2026-11-11T08:00:00Z');
    const { id } = await api.createProspect('OhneText');
    const [legacy] = await api.consents(id);
    await api.withdraw(id, legacy.id);
    const { zweck_text: _words, ...wordless } = websiteConsent;
    const given = await api.give(id, { ...wordless, quelle: 'telefon', erteilt_am: '2026-11-11T08:00:30Z' });
    expect(given.json()).toMatchObject({ zweck_text: null, gueltig: true });
    // the einwilligung's zweck is required text: the record's zweck stands in for the words it lacks
    expect((await api.prospect(id)).einwilligung).toEqual({
      zweck: 'marketing',
      erteilt_am: '2026-11-11T08:00:30.000Z',
    });
  });

  it('refuses an erteilt_am in the future beyond 5 minutes of clock skew (422 ausserhalb_bereich)', async () => {
    ctx.clock.now = new Date('2026-11-12T08:00:00Z');
    const { id } = await api.createProspect('Zukunft');
    const ahead = await api.give(id, { ...websiteConsent, erteilt_am: '2026-11-12T08:05:01Z' });
    expect(ahead.statusCode).toBe(422);
    expect(ahead.json()).toMatchObject({
      code: 'validierung_fehlgeschlagen',
      details: [expect.objectContaining({ feld: 'erteilt_am', grund: 'ausserhalb_bereich' })],
    });
    expect(await api.consents(id)).toHaveLength(1);
    const skewed = await api.give(id, { ...websiteConsent, erteilt_am: '2026-11-12T08:05:00Z' });
    expect(skewed.statusCode).toBe(201);
  });

  it('a PATCH of other fields keeps a withdrawn consent withdrawn; a changed einwilligung is a new record', async () => {
    ctx.clock.now = new Date('2026-11-12T09:00:00Z');
    const { id } = await api.createProspect('Patch');
    const [legacy] = await api.consents(id);
    await api.withdraw(id, legacy.id);
    const patched = await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { vorname: 'Paula' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ vorname: 'Paula', einwilligung: null });

    ctx.clock.now = new Date('2026-11-12T11:00:00Z');
    const renewed = { zweck: 'Erneut erteilt', erteilt_am: '2026-11-12T10:00:00.000Z' };
    const res = await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { einwilligung: renewed });
    expect(res.json().einwilligung).toEqual(renewed);
    const records = await api.consents(id);
    expect(records.map((c) => [c.id === legacy.id, c.gueltig])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('refuses a consent given at or before the latest withdrawal on every path (a stored copy sent back); a later one is given again', async () => {
    ctx.clock.now = new Date('2026-11-13T09:00:00Z');
    const { id } = await api.createProspect('Zurueck');
    const [legacy] = await api.consents(id);
    await api.withdraw(id, legacy.id);
    expect((await api.prospect(id)).einwilligung).toBeNull();
    const nulled = await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { einwilligung: null });
    expect(nulled.statusCode).toBe(422);
    expect(nulled.json().details).toEqual([expect.objectContaining({ feld: 'einwilligung' })]);

    const resent = await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { einwilligung });
    expect(resent.statusCode).toBe(422);
    expect(resent.json().details).toEqual([{ feld: 'einwilligung.erteilt_am', grund: 'ausserhalb_bereich' }]);
    const atWithdrawal = { ...einwilligung, erteilt_am: '2026-11-13T09:00:00Z' };
    expect((await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { einwilligung: atWithdrawal })).statusCode).toBe(
      422,
    );
    const backdated = await api.give(id, { ...websiteConsent, quelle: 'telefon', erteilt_am: '2026-11-13T08:59:00Z' });
    expect(backdated.statusCode).toBe(422);
    expect(backdated.json().details).toEqual([{ feld: 'erteilt_am', grund: 'ausserhalb_bereich' }]);
    expect(await api.consents(id)).toEqual([expect.objectContaining({ id: legacy.id, gueltig: false })]);
    expect((await api.prospect(id)).einwilligung).toBeNull();

    ctx.clock.now = new Date('2026-11-13T10:00:00Z');
    const renewed = { ...einwilligung, erteilt_am: '2026-11-13T09:45:00Z' };
    const again = await ctx.send('PATCH', `/leads/v1/interessenten/${id}`, { einwilligung: renewed });
    expect(again.json().einwilligung).toEqual({ ...renewed, erteilt_am: '2026-11-13T09:45:00.000Z' });
    const records = await api.consents(id);
    expect(records).toHaveLength(2);
    expect(records.find((c) => c.id === legacy.id)?.gueltig).toBe(false);
    expect(records.find((c) => c.id !== legacy.id)?.gueltig).toBe(true);
  });

  it("answers 404 for another account's prospect and for a consent of another prospect, and refuses a bad body in German", async () => {
    const theirs = await api.createProspect('Fremd', ctx.other.key);
    const [theirConsent] = await api.consents(theirs.id, ctx.other.key);
    const mine = await api.createProspect('Eigen');
    expect((await ctx.send('GET', `/leads/v1/interessenten/${theirs.id}/einwilligungen`)).statusCode).toBe(404);
    expect((await api.give(theirs.id, websiteConsent)).statusCode).toBe(404);
    expect((await api.withdraw(mine.id, theirConsent.id)).statusCode).toBe(404);
    expect((await api.confirm(mine.id, theirConsent.id)).statusCode).toBe(404);
    expect((await api.consents(theirs.id, ctx.other.key))[0].widerrufen_am).toBeNull();

    const bad = await api.give(mine.id, { ...websiteConsent, quelle: 'brieftaube' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details).toEqual([expect.objectContaining({ feld: 'quelle' })]);
  });

  it('works through the typed client over real HTTP', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const client = createLeadsClient({ baseUrl: address, apiKey: ctx.tenant.key });
    ctx.clock.now = new Date('2026-11-11T09:00:00Z');
    const { id } = await api.createProspect('Klientin');
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
    // withdrawing a kontaktaufnahme consent leaves the marketing consent alone
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

describe('the migration', () => {
  it('gives every prospect that had a consent the record the app writes for it, and the same einwilligung', async () => {
    ctx.clock.now = new Date('2026-11-20T10:00:00Z');
    const { id } = await api.createProspect('Altbestand');
    const before = { prospect: await api.prospect(id), consents: await api.consents(id) };
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
    expect({ prospect: await api.prospect(id), consents: await api.consents(id) }).toEqual(before);
  });
});
