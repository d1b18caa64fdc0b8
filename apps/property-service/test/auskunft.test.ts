// The Auskunft (issue 37, GDPR Art. 15/20): everything held about one prospect as JSON and as a PDF
// letter, nothing of anyone else, its own scope, and a record of each export without personal data.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeadsClient, unwrap } from '@platform/client';
import { addKey, createTenant, startReceiver, until, type Tenant } from '@platform/testkit';
import { propertyDescriptor } from '../src/descriptor.js';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const person = (name: string) => ({
  vorname: `${name}vorname`,
  nachname: `${name}nachname`,
  email: `${name.toLowerCase()}@example.de`,
  telefon: `+49 30 ${name.length}00 ${name.charCodeAt(0)}`,
  einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' },
  suchprofil: { typ: ['apartment'], orte: ['Berlin'], zimmer_min: 2, kaufpreis_max_eur: 450000 },
});

async function activeProperty(tenant: Tenant) {
  const id = (await ctx.send('POST', '/v1/properties', validProperty(), tenant.key)).json().id as string;
  expect((await ctx.send('POST', `/v1/properties/${id}/activate`, undefined, tenant.key)).statusCode).toBe(200);
  return id;
}

async function inquire(tenant: Tenant, body: Record<string, unknown>) {
  const res = await ctx.send('POST', '/leads/v1/anfragen', body, tenant.key);
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; interessent_id: string };
}

/** A prospect with two inquiries (one with a message), consent history, an appointment and a restriction. */
async function fullProspect(tenant: Tenant, name: string) {
  const [first, second] = [await activeProperty(tenant), await activeProperty(tenant)];
  const a = await inquire(tenant, {
    immobilie_id: first,
    interessent: person(name),
    nachricht: `Nachricht von ${name}`,
  });
  ctx.clock.now = new Date(ctx.clock.now.getTime() + 60_000); // the second inquiry a minute later
  const b = await inquire(tenant, { immobilie_id: second, interessent_id: a.interessent_id });
  const id = a.interessent_id;
  const consent = await ctx.send(
    'POST',
    `/leads/v1/interessenten/${id}/einwilligungen`,
    { zweck: 'marketing', quelle: 'telefon', erteilt_am: '2026-11-02T10:00:00Z', textversion: 'v1' },
    tenant.key,
  );
  expect(consent.statusCode).toBe(201);
  const withdrawn = `/leads/v1/interessenten/${id}/einwilligungen/${consent.json().id}/widerruf`;
  expect((await ctx.send('POST', withdrawn, undefined, tenant.key)).statusCode).toBe(200);
  const appointment = await ctx.send(
    'POST',
    '/v1/appointments',
    { inquiry_id: a.id, starts_at: '2027-01-20T09:00:00Z', ends_at: '2027-01-20T10:00:00Z' },
    tenant.key,
  );
  expect(appointment.statusCode).toBe(201);
  expect(
    (await ctx.send('POST', `/leads/v1/interessenten/${id}/einschraenkung`, undefined, tenant.key)).statusCode,
  ).toBe(200);
  return {
    id,
    inquiries: [a.id, b.id],
    consent: consent.json().id as string,
    appointment: appointment.json().id as string,
  };
}

const auskunft = (id: string, key = ctx.tenant.key) =>
  ctx.send('GET', `/leads/v1/interessenten/${id}/auskunft`, undefined, key);
const auskunftPdf = (id: string, key = ctx.tenant.key) =>
  ctx.send('GET', `/leads/v1/interessenten/${id}/auskunft/pdf`, undefined, key);

const pdfText = (pdf: Buffer) => {
  const dir = mkdtempSync(join(tmpdir(), 'auskunft-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    return execFileSync('pdftotext', [join(dir, 'a.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe('GET /leads/v1/interessenten/{id}/auskunft', () => {
  let mine: Awaited<ReturnType<typeof fullProspect>>;
  let neighbour: Awaited<ReturnType<typeof fullProspect>>;
  let stranger: Awaited<ReturnType<typeof fullProspect>>;
  beforeAll(async () => {
    ctx.clock.now = new Date('2026-11-20T10:00:00Z');
    mine = await fullProspect(ctx.tenant, 'Mira');
    neighbour = await fullProspect(ctx.tenant, 'Nepomuk');
    stranger = await fullProspect(ctx.other, 'Sieglinde');
  });

  it('holds every section of what is stored about the prospect', async () => {
    ctx.clock.now = new Date('2026-11-21T08:00:00Z');
    const res = await auskunft(mine.id);
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
    expect(body.termine).toEqual([
      expect.objectContaining({ id: mine.appointment, anfrage_id: mine.inquiries[0], status: 'vorgeschlagen' }),
    ]);
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

  it('holds no value of another prospect, of this account or another', async () => {
    const all = [(await auskunft(mine.id)).body, pdfText((await auskunftPdf(mine.id)).rawPayload)];
    for (const other of [neighbour, stranger]) {
      const name = other === neighbour ? 'Nepomuk' : 'Sieglinde';
      const values = [
        ...Object.values(person(name)).filter((v): v is string => typeof v === 'string'),
        `Nachricht von ${name}`,
        other.id,
        other.consent,
        other.appointment,
        ...other.inquiries,
      ];
      for (const text of all) for (const value of values) expect(text).not.toContain(value);
    }
  });

  it('needs the scope leads:export: a key with leads:read only is refused', async () => {
    const reader = await addKey(ctx.db.prisma, ctx.tenant, { service: propertyDescriptor, scopes: ['leads:read'] });
    for (const res of [await auskunft(mine.id, reader.key), await auskunftPdf(mine.id, reader.key)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('scope_fehlt');
    }
  });

  it("answers another account's prospect exactly like an unknown one", async () => {
    const theirs = await auskunft(stranger.id);
    const unknown = await auskunft('int_unknown');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(unknown.body);
    expect((await auskunftPdf(stranger.id)).body).toBe((await auskunftPdf('int_unknown')).body);
  });

  it('as a PDF letter: the name, every inquiry and its score', async () => {
    const res = await auskunftPdf(mine.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Auskunft über Ihre gespeicherten Daten');
    expect(text).toContain('Miravorname');
    expect(text).toContain('Miranachname');
    expect(text).toContain('mira@example.de');
    const { anfragen } = (await auskunft(mine.id)).json();
    for (const inquiry of anfragen) {
      expect(text).toContain(`Anfrage ${inquiry.id}`);
      expect(text).toContain(`Bewertung: ${inquiry.bewertung.gesamt} von 100 Punkten`);
    }
    expect(text).toContain('Nachricht von Mira');
    expect(text).toContain(mine.appointment);
  });
});

describe('the Auskunftsprotokoll and erasure', () => {
  it('records each export (format, key), keeps the records after erasure, and answers 404 then', async () => {
    const tenant = ctx.other;
    const { id } = await fullProspect(tenant, 'Eraseme');
    ctx.clock.now = new Date('2026-11-22T09:00:00Z');
    expect((await auskunft(id, tenant.key)).statusCode).toBe(200);
    ctx.clock.now = new Date('2026-11-22T09:05:00Z');
    expect((await auskunftPdf(id, tenant.key)).statusCode).toBe(200);

    const log = await ctx.send('GET', `/leads/v1/auskunftsprotokoll?interessent_id=${id}`, undefined, tenant.key);
    expect(log.statusCode).toBe(200);
    const by = { anwendung_id: tenant.applicationId, key_id: tenant.keyId };
    expect(log.json().daten).toEqual([
      {
        id: expect.any(String),
        interessent_id: id,
        format: 'pdf',
        zeitpunkt: '2026-11-22T09:05:00.000Z',
        veranlasst_durch: by,
      },
      {
        id: expect.any(String),
        interessent_id: id,
        format: 'json',
        zeitpunkt: '2026-11-22T09:00:00.000Z',
        veranlasst_durch: by,
      },
    ]);
    // another account's log does not hold them
    const theirs = await ctx.send('GET', `/leads/v1/auskunftsprotokoll?interessent_id=${id}`);
    expect(theirs.json().daten).toEqual([]);

    expect((await ctx.send('POST', `/leads/v1/interessenten/${id}/loeschung`, {}, tenant.key)).statusCode).toBe(200);
    const unknown = await auskunft('int_unknown', tenant.key);
    for (const after of [await auskunft(id, tenant.key), await auskunftPdf(id, tenant.key)]) {
      expect(after.statusCode).toBe(404);
      expect(after.body).toBe(unknown.body);
    }
    const records = await ctx.db.query<{ row: string }>(
      'SELECT to_jsonb(r)::text AS row FROM auskunft_records r WHERE prospect_id = $1',
      [id],
    );
    expect(records).toHaveLength(2); // kept, and the refused exports after erasure left none
    const personal = [
      ...Object.values(person('Eraseme')).filter((v) => typeof v === 'string'),
      'Nachricht von Eraseme',
    ];
    for (const { row } of records) for (const value of personal) expect(row).not.toContain(value);
  });

  it('refuses bis before von in the log', async () => {
    const res = await ctx.send('GET', '/leads/v1/auskunftsprotokoll?von=2026-11-22T00:00:00Z&bis=2026-11-21T00:00:00Z');
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([expect.objectContaining({ feld: 'bis' })]);
  });

  it('works through the typed client over real HTTP', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const client = createLeadsClient({ baseUrl: address, apiKey: ctx.tenant.key });
    const { id } = await fullProspect(ctx.tenant, 'Clienta');
    const body = await unwrap(
      client.GET('/leads/v1/interessenten/{interessentId}/auskunft', { params: { path: { interessentId: id } } }),
    );
    expect(body.stammdaten.nachname).toBe('Clientanachname');
    expect(body.anfragen).toHaveLength(2);
    const log = await unwrap(client.GET('/leads/v1/auskunftsprotokoll', { params: { query: { interessent_id: id } } }));
    expect(log.daten.map((r) => r.format)).toEqual(['json']);
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
      const property = await activeProperty(tenant);
      const { interessent_id } = await inquire(tenant, { immobilie_id: property, interessent: person('Zustella') });
      await until(async () => receiver.received.length === 1);
      const received = async () =>
        (await auskunft(interessent_id, tenant.key))
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
