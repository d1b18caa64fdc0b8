// The Auskunft (issue 37, GDPR Art. 15/20): everything held about one prospect, as JSON and as a
// PDF letter. Isolation and scope: auskunft-isolation.test.ts; the log of exports: auskunft-log.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startReceiver, until } from '@platform/testkit';
import { propertyDescriptor } from '../src/descriptor.js';
import { auskunftFixtures, HOST, pdfText, person, type FullProspect } from './auskunft-helpers.js';
import { activeProperty, startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let fixtures: ReturnType<typeof auskunftFixtures>;
let mine: FullProspect;
beforeAll(async () => {
  ctx = await startPropertyApp();
  fixtures = auskunftFixtures(ctx);
  ctx.clock.now = new Date('2026-11-20T10:00:00Z');
  mine = await fixtures.fullProspect(ctx.tenant, 'Mira');
});
afterAll(() => ctx.close());

/**
 * Where the Auskunft shows the rows of each table with a `prospect_id`: the section, and the column
 * matched against a field of its entries. A table not here and not left out on purpose fails.
 */
const SECTION_OF: Record<string, { section: string; column: string; field: string }> = {
  prospect_consents: { section: 'einwilligungen', column: 'id', field: 'id' },
  inquiries: { section: 'anfragen', column: 'id', field: 'id' },
  appointments: { section: 'termine', column: 'id', field: 'id' },
  outreach_announcements: { section: 'treffer', column: 'property_id', field: 'immobilie_id' },
  outreach_daily_counts: { section: 'treffer_tageszaehler', column: "to_char(day, 'YYYY-MM-DD')", field: 'tag' },
};
/** Tables with a `prospect_id` the Auskunft leaves out, and why. */
const LEFT_OUT: Record<string, string> = {
  auskunft_records: 'the log of the exports themselves (ids, times, keys), listed at /leads/v1/auskunftsprotokoll',
  erasure_records: 'written when the prospect is forgotten; from then on the Auskunft answers 404',
};

describe('GET /leads/v1/interessenten/{id}/auskunft', () => {
  it('holds every section of what is stored about the prospect', async () => {
    ctx.clock.now = new Date('2026-11-21T08:00:00Z');
    const res = await fixtures.auskunft(mine.id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      interessent_id: mine.id,
      erstellt_am: '2026-11-21T08:00:00.000Z',
      stammdaten: {
        vorname: 'Miravorname',
        nachname: 'Miranachname',
        email: 'mira@example.de',
        telefon: person('Mira').telefon,
      },
      suchprofil: { typ: ['apartment'], orte: ['Berlin'], zimmer_min: 2, kaufpreis_max_eur: 450000, aktiv: true },
      eingeschraenkt_seit: '2026-11-20T10:01:00.000Z',
      widerspruch_seit: null,
      aufbewahrung_bis: '2027-05-19',
      loeschung_geplant_am: '2027-05-20',
    });
    // the history: the declared consent and the marketing consent, withdrawn
    expect(body.einwilligungen).toHaveLength(2);
    expect(body.einwilligungen[1]).toMatchObject({ id: mine.consent, zweck: 'marketing', gueltig: false });
    expect(body.einwilligungen[1].widerrufen_am).toBe('2026-11-20T10:01:00.000Z');
    // every inquiry with its score and its explanation, as the inquiries API shows them
    expect(body.anfragen.map((a: { id: string }) => a.id)).toEqual(mine.inquiries);
    for (const inquiry of body.anfragen) {
      const shown = (await ctx.send('GET', `/leads/v1/anfragen/${inquiry.id}`)).json();
      expect(inquiry).toEqual(shown);
      expect(inquiry.bewertung.kriterien.length).toBeGreaterThan(0);
    }
    expect(body.anfragen[0].nachricht).toBe('Nachricht von Mira');
    // the events that name the prospect, one of its inquiries or its appointment: types and times
    const types = body.ereignisse.map((e: { typ: string }) => e.typ);
    expect(types).toEqual(
      expect.arrayContaining(['inquiry.received', 'inquiry.scored', 'consent.withdrawn', 'prospect.restricted']),
    );
    expect(body.ereignisse.find((e: { typ: string }) => e.typ === 'inquiry.received')).toEqual({
      id: expect.stringMatching(/^evt_/),
      typ: 'inquiry.received',
      zeitpunkt: '2026-11-20T10:00:00.000Z',
      zustellungen: { zugestellt: 0, fehlgeschlagen: 0, ausstehend: 0 },
    });
  });

  it('holds each appointment with its earlier times, sequence and who confirmed it, without the host', async () => {
    const res = await fixtures.auskunft(mine.id);
    expect(res.body).not.toContain(HOST);
    const at = '2026-11-20T10:01:00.000Z';
    expect(res.json().termine).toEqual([
      {
        id: mine.appointment,
        immobilie_id: expect.any(String),
        anfrage_id: mine.inquiries[0],
        status: 'bestaetigt',
        beginn: '2027-01-20T14:00:00.000Z',
        ende: '2027-01-20T15:00:00.000Z',
        sequenz: 1,
        fruehere_zeiten: [{ beginn: '2027-01-20T09:00:00.000Z', ende: '2027-01-20T10:00:00.000Z', gueltig_bis: at }],
        zeitfenster_id: null,
        bestaetigt_von: 'makler',
        bestaetigt_am: at,
        abgesagt_von: null,
        abgesagt_am: null,
        absagegrund: null,
        stattgefunden_am: null,
        angelegt_am: at,
      },
    ]);
  });

  it('holds the Treffer: each match announced or dropped over the daily bound, and the daily counter', async () => {
    const { treffer, treffer_tageszaehler } = (await fixtures.auskunft(mine.id)).json();
    const match = { punkte: 100, angebot: 'kauf:420000', anlass: 'aktivierung', zeitpunkt: '2026-11-20T10:01:00.000Z' };
    expect(treffer).toHaveLength(2);
    expect(treffer).toEqual(
      expect.arrayContaining([
        { immobilie_id: mine.matched[0], status: 'angekuendigt', ...match },
        { immobilie_id: mine.matched[1], status: 'verworfen', ...match },
      ]),
    );
    expect(treffer_tageszaehler).toEqual([{ tag: '2026-11-20', angekuendigt: 1 }]);
  });

  it('holds the rows of every table with a prospect_id (a new such table must join the Auskunft)', async () => {
    const body = (await fixtures.auskunft(mine.id)).json();
    const tables = await ctx.db.query<{ table_name: string }>(
      `SELECT DISTINCT table_name FROM information_schema.columns
        WHERE column_name = 'prospect_id' AND table_schema = current_schema() ORDER BY table_name`,
    );
    for (const { table_name: table } of tables) {
      if (LEFT_OUT[table]) continue;
      const shown = SECTION_OF[table];
      expect(shown, `table ${table} is neither in the Auskunft nor left out on purpose`).toBeDefined();
      const rows = await ctx.db.query<{ key: string }>(
        `SELECT ${shown!.column} AS key FROM ${table} WHERE prospect_id = $1`,
        [mine.id],
      );
      expect(rows.length, `the test prospect has no row in ${table}`).toBeGreaterThan(0);
      const entries = body[shown!.section] as Record<string, string>[];
      expect(entries.map((entry) => entry[shown!.field]).sort(), table).toEqual(rows.map((r) => r.key).sort());
    }
  });

  it('is not kept by caches (Cache-Control: no-store), like the PDF', async () => {
    for (const res of [await fixtures.auskunft(mine.id), await fixtures.auskunftPdf(mine.id)])
      expect(res.headers['cache-control']).toBe('no-store');
  });

  it('as a PDF letter: the name, every inquiry and its score, the appointment and the Treffer', async () => {
    const res = await fixtures.auskunftPdf(mine.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Auskunft über Ihre gespeicherten Daten');
    for (const value of ['Miravorname', 'Miranachname', 'mira@example.de', 'Nachricht von Mira', mine.appointment])
      expect(text).toContain(value);
    const { anfragen } = (await fixtures.auskunft(mine.id)).json();
    for (const inquiry of anfragen) {
      expect(text).toContain(`Anfrage ${inquiry.id}`);
      expect(text).toContain(`Bewertung: ${inquiry.bewertung.gesamt} von 100 Punkten`);
    }
    expect(text).toContain('Früher: 20.01.2027, 09:00 UTC bis 20.01.2027, 10:00 UTC');
    expect(text).toContain('20.11.2026, 10:01 UTC (durch Makler)');
    expect(text).not.toContain(HOST);
    for (const property of mine.matched) expect(text).toContain(`Immobilie ${property} (kauf:420000, neu angeboten)`);
    expect(text).toContain('verworfen (Tagesgrenze erreicht, nicht mitgeteilt)');
    expect(text).toContain('Ankündigungen am 20.11.2026: 1');
  });
});

describe('the delivery state of the events', () => {
  it('counts the deliveries of each event by state: delivered, and held for a paused endpoint', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    const receiver = await startReceiver();
    const stop = await ctx.startWebhookDelivery();
    try {
      const hook = (url: string) =>
        ctx.send('POST', '/v1/webhooks', { url, events: ['inquiry.received'] }, tenant.key).then((r) => r.json().id);
      await hook(`${receiver.url}/delivered`);
      const paused = await hook(`${receiver.url}/paused`);
      expect((await ctx.send('PATCH', `/v1/webhooks/${paused}`, { status: 'paused' }, tenant.key)).statusCode).toBe(
        200,
      );
      const property = await activeProperty(ctx, tenant.key);
      const { interessent_id } = await fixtures.inquire(tenant, {
        immobilie_id: property,
        interessent: person('Zustella'),
      });
      await until(async () => receiver.received.length === 1);
      const received = async () =>
        (await fixtures.auskunft(interessent_id, tenant.key))
          .json()
          .ereignisse.find((e: { typ: string }) => e.typ === 'inquiry.received');
      await until(async () => (await received())?.zustellungen.zugestellt === 1);
      expect((await received()).zustellungen).toEqual({ zugestellt: 1, fehlgeschlagen: 0, ausstehend: 1 });
    } finally {
      await stop();
      await receiver.close();
    }
  });
});
