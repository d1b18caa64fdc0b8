import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, whileHeld } from '@platform/testkit';
import { buildPropertyApp } from '../src/app.js';
import { PROPERTY_JOBS } from '../src/jobs.js';
import { endViewingsOfForgotten } from '../src/appointments/index.js';
import { anonymiseExpired } from '../src/leads/retention/index.js';
import { eventData, startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';
import { propertyDescriptor } from '../src/descriptor.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const person = (n: number) => ({
  vorname: `Vorname${n}`,
  nachname: `Nachname${n}`,
  email: `person${n}@example.de`,
  telefon: `+49 30 555 010${n}`,
  einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-01-01T10:00:00Z' },
  suchprofil: { typ: ['house'], orte: ['Leipzig'], zimmer_min: 4 },
});

/** Creates a viewing of the inquiry at the time; `confirm`ed or `complete`d on request. Resolves to it. */
async function viewing(
  inquiryId: string,
  starts_at: string,
  ends_at: string,
  then: 'confirm' | 'complete' | 'none' = 'none',
) {
  const res = await ctx.send('POST', '/v1/appointments', { inquiry_id: inquiryId, starts_at, ends_at });
  expect(res.statusCode).toBe(201);
  const apt = res.json() as { id: string; property_id: string; starts_at: string; ends_at: string };
  if (then !== 'none') await ctx.send('POST', `/v1/appointments/${apt.id}/confirm`, { by: 'prospect' });
  if (then === 'complete') await ctx.send('POST', `/v1/appointments/${apt.id}/complete`, {});
  return apt;
}

/** The appointment.cancelled data of the appointment. */
const cancellations = async (id: string) =>
  (await eventData(ctx, 'appointment.cancelled')).filter((d) => d.appointment_id === id);

/** Every text-like value of every table, to prove that no personal value is left anywhere (one query: a connection each was slow). */
async function everyTextValue(): Promise<string> {
  const columns = await ctx.db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'ARRAY', 'jsonb')`,
  );
  const each = columns.map(({ table_name, column_name }) => `SELECT "${column_name}"::text AS v FROM "${table_name}"`);
  const [row] = await ctx.db.query<{ text_values: string | null }>(
    `SELECT string_agg(coalesce(v, ''), E'\\n') AS text_values FROM (${each.join(' UNION ALL ')}) AS every_value`,
  );
  return row?.text_values ?? '';
}

/** Tables with a `prospect_id` whose rows stay when the prospect is forgotten, and why. */
const KEPT_AFTER_ERASURE: Record<string, string> = {
  inquiries: 'ids, property and times; the message is removed',
  appointments: 'ids and times; the open ones are cancelled',
  erasure_records: 'the erasure log itself: ids, times, on whose request',
  auskunft_records: 'the log of the Auskunft exports: ids, times, keys',
};

/** Per table with a `prospect_id` not kept on purpose, how many rows name the prospect. */
async function rowsNaming(prospectId: string): Promise<Record<string, number>> {
  const tables = await ctx.db.query<{ table_name: string }>(
    `SELECT DISTINCT table_name FROM information_schema.columns
      WHERE column_name = 'prospect_id' AND table_schema = current_schema() ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    if (KEPT_AFTER_ERASURE[table]) continue;
    const [{ n }] = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${table}" WHERE prospect_id = $1`,
      [prospectId],
    );
    counts[table] = n;
  }
  return counts;
}

/** What outreach (Treffer) holds about a prospect: one announcement of a property and today's counter. */
async function announced(accountId: string, prospectId: string, propertyId = 'prop_announced') {
  const at = ctx.clock.now;
  await ctx.db.prisma.outreachAnnouncement.create({
    data: {
      account_id: accountId,
      property_id: propertyId,
      prospect_id: prospectId,
      change_key: 'kauf:420000',
      run_id: 'orun_test',
      score: 80,
      announced: true,
      created_at: at,
    },
  });
  await ctx.db.prisma.outreachDailyCount.create({
    data: { account_id: accountId, prospect_id: prospectId, day: at, announced: 1 },
  });
}

/** How many outreach rows (announcements and daily counters) name the prospect. */
async function outreachRows(prospectId: string): Promise<number> {
  const where = { where: { prospect_id: prospectId } };
  return (
    (await ctx.db.prisma.outreachAnnouncement.count(where)) + (await ctx.db.prisma.outreachDailyCount.count(where))
  );
}

describe('retention', () => {
  it('anonymises prospects past aufbewahrung_bis and leaves the others; running again changes nothing', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    ctx.clock.now = new Date('2026-01-10T12:00:00Z'); // retention until 2026-07-09
    const old = (await ctx.send('POST', '/leads/v1/interessenten', person(1), tenant.key)).json();
    ctx.clock.now = new Date('2026-03-01T12:00:00Z'); // retention until 2026-08-28
    const recent = (await ctx.send('POST', '/leads/v1/interessenten', person(2), tenant.key)).json();
    expect(old.aufbewahrung_bis).toBe('2026-07-09');
    await announced(tenant.accountId, old.id);
    await announced(tenant.accountId, recent.id);
    expect(await outreachRows(old.id)).toBe(2);

    expect(await anonymiseExpired(ctx.db.prisma, new Date('2026-07-09T23:59:00Z'), endViewingsOfForgotten)).toBe(0); // the date itself is still kept
    expect(await anonymiseExpired(ctx.db.prisma, new Date('2026-07-10T03:00:00Z'), endViewingsOfForgotten)).toBe(1);
    expect(await anonymiseExpired(ctx.db.prisma, new Date('2026-07-10T03:00:00Z'), endViewingsOfForgotten)).toBe(0);

    const anonymised = (await ctx.send('GET', `/leads/v1/interessenten/${old.id}`, undefined, tenant.key)).json();
    expect(anonymised).toEqual({
      ...old,
      vorname: null,
      nachname: null,
      email: null,
      telefon: null,
      einwilligung: null,
      angelegt_am: '2026-01-01T00:00:00.000Z', // only the month stays
      aktualisiert_am: '2026-01-01T00:00:00.000Z',
      aufbewahrung_bis: '2026-07-01', // (with the day, it would give away the day of the last activity)
      suchprofil: { ...old.suchprofil, aktiv: false }, // the criteria stay; nobody can be contacted any more
      anonymisiert: true,
    });
    expect(
      (await ctx.send('GET', '/leads/v1/interessenten?suchprofil_aktiv=true&limit=100', undefined, tenant.key))
        .json()
        .daten.map((p: { id: string }) => p.id),
    ).not.toContain(old.id);
    // Which properties were announced to them and their counters go with them; the other prospect's stay.
    expect(await outreachRows(old.id)).toBe(0);
    expect(await outreachRows(recent.id)).toBe(2);
    const untouched = (await ctx.send('GET', `/leads/v1/interessenten/${recent.id}`, undefined, tenant.key)).json();
    expect(untouched).toEqual(recent);
    expect(
      (await ctx.send('PATCH', `/leads/v1/interessenten/${old.id}`, { vorname: 'Wieder' }, tenant.key)).statusCode,
    ).toBe(409);
  });
});

describe('retention and viewings', () => {
  it('cancels the open viewings of anonymised prospects (agent, other), each with its event, and keeps the others', async () => {
    ctx.clock.now = new Date('2025-01-10T12:00:00Z'); // retention until 2025-07-09
    const property = (await ctx.send('POST', '/v1/properties', validProperty())).json().id;
    const anfrage = (
      await ctx.send('POST', '/leads/v1/anfragen', { immobilie_id: property, interessent: person(5) })
    ).json();
    const proposed = await viewing(anfrage.id, '2025-07-20T09:00:00Z', '2025-07-20T10:00:00Z');
    const confirmed = await viewing(anfrage.id, '2025-07-21T09:00:00Z', '2025-07-21T10:00:00Z', 'confirm');
    const completed = await viewing(anfrage.id, '2025-02-01T09:00:00Z', '2025-02-01T10:00:00Z', 'complete');
    ctx.clock.now = new Date('2025-04-01T12:00:00Z'); // retention until 2025-09-28: kept
    const other = (
      await ctx.send('POST', '/leads/v1/anfragen', { immobilie_id: property, interessent: person(6) })
    ).json();
    const kept = await viewing(other.id, '2025-07-20T09:00:00Z', '2025-07-20T10:00:00Z');

    const at = new Date('2025-07-10T01:00:00Z');
    expect(await anonymiseExpired(ctx.db.prisma, at, endViewingsOfForgotten)).toBe(1);
    for (const apt of [proposed, confirmed]) {
      expect((await ctx.send('GET', `/v1/appointments/${apt.id}`)).json()).toMatchObject({
        status: 'cancelled',
        cancelled_by: 'agent',
        cancel_reason: 'other',
        cancelled_at: at.toISOString(),
      });
      expect(await cancellations(apt.id)).toEqual([
        {
          appointment_id: apt.id,
          property_id: property,
          starts_at: apt.starts_at,
          ends_at: apt.ends_at,
          cancelled_by: 'agent',
          reason: 'other',
        },
      ]);
    }
    expect((await ctx.send('GET', `/v1/appointments/${completed.id}`)).json().status).toBe('completed');
    expect((await ctx.send('GET', `/v1/appointments/${kept.id}`)).json().status).toBe('proposed');
    expect(await cancellations(completed.id)).toEqual([]);
    expect(await cancellations(kept.id)).toEqual([]);
    expect(await anonymiseExpired(ctx.db.prisma, at, endViewingsOfForgotten)).toBe(0);
    expect(await cancellations(proposed.id)).toHaveLength(1);
  });
});

describe('POST /leads/v1/interessenten/{id}/loeschung', () => {
  it('erases at once: no personal value is left anywhere in the database; repeating is harmless', async () => {
    ctx.clock.now = new Date('2026-11-22T10:00:00Z');
    const created = (await ctx.send('POST', '/leads/v1/interessenten', person(3))).json();
    const property = (
      await ctx.send('POST', '/v1/properties', {
        type: 'house',
        title: 'Haus',
        address: { postal_code: '04109', city: 'Leipzig' },
      })
    ).json();
    const anfrage = (
      await ctx.send('POST', '/leads/v1/anfragen', {
        immobilie_id: property.id,
        interessent_id: created.id,
        nachricht: 'Gruesse von Person drei',
      })
    ).json();
    const proposed = await viewing(anfrage.id, '2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z');
    const confirmed = await viewing(anfrage.id, '2026-12-02T09:00:00Z', '2026-12-02T10:00:00Z', 'confirm');
    const completed = await viewing(anfrage.id, '2026-11-23T09:00:00Z', '2026-11-23T10:00:00Z', 'complete');
    // a consent record in the person's own words and its history (prospect_consents)
    const consent = await ctx.send('POST', `/leads/v1/interessenten/${created.id}/einwilligungen`, {
      zweck: 'marketing',
      quelle: 'telefon',
      erteilt_am: '2026-11-22T09:00:00Z',
      zweck_text: 'Angebote fuer Person drei',
      textversion: 'Fassung Person drei',
    });
    expect(consent.statusCode).toBe(201);
    // Treffer: a property announced to them, and to someone else, who is not erased.
    const bystander = (await ctx.send('POST', '/leads/v1/interessenten', person(6))).json();
    await announced(ctx.tenant.accountId, created.id, property.id);
    await announced(ctx.tenant.accountId, bystander.id, property.id);
    // Every table naming the prospect (a new such table must be forgotten too, or kept on purpose above).
    const named = await rowsNaming(created.id);
    for (const [table, n] of Object.entries(named))
      expect(n, `the test prospect has no row in ${table}`).toBeGreaterThan(0);
    const before = await everyTextValue();
    expect(before).toContain('Angebote fuer Person drei');
    expect(before).toContain('Gruesse von Person drei');
    expect(before).toContain('Nachname3');
    expect(before).toContain('person3@example.de');

    const res = await ctx.send('POST', `/leads/v1/interessenten/${created.id}/loeschung`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: created.id, status: 'geloescht', geloescht_am: '2026-11-22T10:00:00.000Z' });

    const after = await everyTextValue();
    for (const value of [
      'Vorname3',
      'Nachname3',
      'person3@example.de',
      '+49 30 555 0103',
      'Gruesse von Person drei',
      'Angebote fuer Person drei',
      'Fassung Person drei',
    ])
      expect(after).not.toContain(value);
    expect(await ctx.db.prisma.prospectConsent.count({ where: { prospect_id: created.id } })).toBe(0);
    // Outreach held ids only, but of a person now gone: nothing is left of it; the bystander's stays.
    expect(await outreachRows(created.id)).toBe(0);
    expect(await outreachRows(bystander.id)).toBe(2);
    expect(await rowsNaming(created.id)).toEqual(Object.fromEntries(Object.keys(named).map((table) => [table, 0])));
    expect(after).toContain('Nachname2'); // the search does see personal data that is still there
    // Their open viewings are cancelled as declined by them, each with its event (ids, times, side, reason only).
    for (const apt of [proposed, confirmed]) {
      expect((await ctx.send('GET', `/v1/appointments/${apt.id}`)).json()).toMatchObject({
        status: 'cancelled',
        cancelled_by: 'prospect',
        cancel_reason: 'prospect_declined',
      });
      expect(await cancellations(apt.id)).toEqual([
        {
          appointment_id: apt.id,
          property_id: property.id,
          starts_at: apt.starts_at,
          ends_at: apt.ends_at,
          cancelled_by: 'prospect',
          reason: 'prospect_declined',
        },
      ]);
    }
    expect((await ctx.send('GET', `/v1/appointments/${completed.id}`)).json().status).toBe('completed');
    expect(await ctx.db.prisma.appointment.count({ where: { inquiry_id: anfrage.id } })).toBe(3); // the rows stay: ids and times only
    // Nobody can invite them again: a new viewing for their inquiry is refused.
    const late = await ctx.send('POST', '/v1/appointments', {
      inquiry_id: anfrage.id,
      starts_at: '2026-12-05T09:00:00Z',
      ends_at: '2026-12-05T10:00:00Z',
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('conflict');

    ctx.clock.now = new Date('2026-11-23T10:00:00Z');
    const again = await ctx.send('POST', `/leads/v1/interessenten/${created.id}/loeschung`);
    expect(again.json()).toEqual(res.json());
    expect(await cancellations(proposed.id)).toHaveLength(1);
    expect((await ctx.send('GET', `/leads/v1/interessenten/${created.id}`)).json()).toMatchObject({
      anonymisiert: true,
      nachname: null,
    });
  });

  it("answers another account's prospect with 404 and erases nothing", async () => {
    const theirs = (await ctx.send('POST', '/leads/v1/interessenten', person(4), ctx.other.key)).json();
    await announced(ctx.other.accountId, theirs.id);
    const res = await ctx.send('POST', `/leads/v1/interessenten/${theirs.id}/loeschung`);
    expect(res.statusCode).toBe(404);
    expect(await outreachRows(theirs.id)).toBe(2);
    expect(res.json().code).toBe('nicht_gefunden');
    expect(
      (await ctx.send('GET', `/leads/v1/interessenten/${theirs.id}`, undefined, ctx.other.key)).json().nachname,
    ).toBe('Nachname4');
  });
});

describe('the nightly job', () => {
  it('runs at 03:00 Europe/Berlin and anonymises expired prospects, their inquiry messages included', async () => {
    const job = PROPERTY_JOBS.find((j) => j.name === 'anonymise')!;
    expect([job.schedule?.pattern, job.schedule?.tz]).toEqual(['0 3 * * *', 'Europe/Berlin']);
    ctx.clock.now = new Date('2025-03-10T12:00:00Z'); // retention until 2025-09-06
    const property = (await ctx.send('POST', '/v1/properties', validProperty())).json().id;
    await ctx.send('POST', `/v1/properties/${property}/activate`);
    const anfrage = (
      await ctx.send('POST', '/leads/v1/anfragen', {
        immobilie_id: property,
        interessent: person(7),
        nachricht: 'Bitte unter 0160 4444 zurückrufen',
      })
    ).json();
    expect(anfrage.nachricht).toContain('0160 4444');
    const result = await job.run(
      {
        db: ctx.db.prisma,
        now: new Date('2025-09-07T01:00:00Z'),
        storage: ctx.storage,
        sandbox: ctx.sandbox,
        jobs: ctx.jobs,
      },
      {},
    );
    expect(result.anonymised).toBeGreaterThanOrEqual(1);
    expect((await ctx.send('GET', `/leads/v1/anfragen/${anfrage.id}`)).json().nachricht).toBeNull();
    expect((await ctx.send('GET', `/leads/v1/interessenten/${anfrage.interessent_id}`)).json()).toMatchObject({
      nachname: null,
      anonymisiert: true,
    });
    expect(
      await job.run(
        {
          db: ctx.db.prisma,
          now: new Date('2025-09-07T01:00:00Z'),
          storage: ctx.storage,
          sandbox: ctx.sandbox,
          jobs: ctx.jobs,
        },
        {},
      ),
    ).toEqual({ anonymised: 0 });
  });
});

describe('a retention period other than 180 days', () => {
  it('sets aufbewahrung_bis from the configured period', async () => {
    const app = await startTestApp(propertyDescriptor, (deps) => buildPropertyApp({ ...deps, leadsRetentionDays: 30 }));
    try {
      app.clock.now = new Date('2026-11-22T10:00:00Z');
      const res = await app.send('POST', '/leads/v1/interessenten', person(8));
      expect(res.json().aufbewahrung_bis).toBe('2026-12-22');
    } finally {
      await app.close();
    }
  });
});

describe('overlapping anonymisation runs', () => {
  it('anonymise each expired prospect once: two runs that overlap report 12 together, not 12 each', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    ctx.clock.now = new Date('2020-01-10T12:00:00Z'); // retention until 2020-07-09; nothing else in this file is that old
    const ids: string[] = [];
    for (let n = 0; n < 12; n++)
      ids.push((await ctx.send('POST', '/leads/v1/interessenten', person(n), tenant.key)).json().id);
    const at = new Date('2020-07-10T03:00:00Z');
    // Both runs pick the same batch and then wait on the rows another session holds (as one run
    // waits on the other's): once released, each must skip what the other has anonymised meanwhile.
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRaw`SELECT id FROM prospects WHERE account_id = ${tenant.accountId} FOR UPDATE`,
      () =>
        Promise.all([
          anonymiseExpired(ctx.db.prisma, at, endViewingsOfForgotten),
          anonymiseExpired(ctx.db.prisma, at, endViewingsOfForgotten),
        ]),
      2,
    );
    expect(waited).toBe(2);
    expect(result[0] + result[1]).toBe(12);
    const rows = await ctx.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM prospects WHERE account_id = '${tenant.accountId}' AND anonymised_at IS NOT NULL`,
    );
    expect(Number(rows[0].n)).toBe(12);
  });
});
