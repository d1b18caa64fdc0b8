// The proof of erasure (issue 37): every erasure and nightly anonymisation leaves a record without
// personal data, in the erasure's transaction, listed by the account at /leads/v1/loeschprotokoll;
// an erasure is also kept in the journal outside the database.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import { createTenant, startTestApp, type Tenant } from '@platform/testkit';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';
import { PROPERTY_JOBS } from '../src/jobs.js';
import { createErasureJournal } from '../src/leads/erasure-audit/index.js';
import { validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let journalDir: string;
beforeAll(async () => {
  journalDir = await mkdtemp(join(tmpdir(), 'erasure-journal-'));
  const erasureJournal = createErasureJournal(journalDir);
  ctx = await startTestApp(propertyDescriptor, (deps) => buildPropertyApp({ ...deps, erasureJournal }));
});
afterAll(async () => {
  await ctx.close();
  await rm(journalDir, { recursive: true, force: true });
});

const person = (n: number) => ({
  vorname: `Auditvorname${n}`,
  nachname: `Auditnachname${n}`,
  email: `audit${n}@example.de`,
  telefon: `+49 30 777 010${n}`,
  einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-01-01T10:00:00Z' },
});
const personalValues = (n: number) => [
  ...Object.values(person(n)).filter((v) => typeof v === 'string'),
  'Rückruf 0171 9999',
];

/** A prospect with an inquiry (a message) about an active property and an open viewing; resolves to their ids. */
async function prospectWithViewing(tenant: Tenant, n: number) {
  const property = (await ctx.send('POST', '/v1/properties', validProperty(), tenant.key)).json().id;
  await ctx.send('POST', `/v1/properties/${property}/activate`, undefined, tenant.key);
  const inquiry = (
    await ctx.send(
      'POST',
      '/leads/v1/anfragen',
      { immobilie_id: property, interessent: person(n), nachricht: 'Rückruf 0171 9999' },
      tenant.key,
    )
  ).json();
  const viewing = await ctx.send(
    'POST',
    '/v1/appointments',
    { inquiry_id: inquiry.id, starts_at: '2027-01-20T09:00:00Z', ends_at: '2027-01-20T10:00:00Z' },
    tenant.key,
  );
  expect(viewing.statusCode).toBe(201);
  return { prospect: inquiry.interessent_id as string, inquiry: inquiry.id as string };
}

const log = async (tenant: Tenant, query = '') => {
  const response = await ctx.send('GET', `/leads/v1/loeschprotokoll${query}`, undefined, tenant.key);
  expect(response.statusCode).toBe(200);
  return response.json() as { daten: Record<string, unknown>[]; seite: { naechster_cursor: string | null } };
};

/** Every text value of the audit table. */
const auditText = async () =>
  (await ctx.db.query<{ row: string }>('SELECT to_jsonb(r)::text AS row FROM erasure_records r'))
    .map((r) => r.row)
    .join('\n');

describe('the erasure log', () => {
  it('records an erasure on request: which key, when, the rows per table, nothing personal; the journal has ids only', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    ctx.clock.now = new Date('2026-12-01T10:00:00Z');
    const { prospect } = await prospectWithViewing(tenant, 1);
    ctx.clock.now = new Date('2026-12-02T10:00:00Z');
    const erased = await ctx.send('POST', `/leads/v1/interessenten/${prospect}/loeschung`, {}, tenant.key);
    expect(erased.statusCode).toBe(200);
    // Erasing again confirms the first erasure and records nothing more.
    await ctx.send('POST', `/leads/v1/interessenten/${prospect}/loeschung`, {}, tenant.key);

    const { daten } = await log(tenant);
    expect(daten).toEqual([
      {
        id: expect.stringMatching(/^loe_/),
        interessent_id: prospect,
        art: 'loeschung',
        zeitpunkt: '2026-12-02T10:00:00.000Z',
        veranlasst_durch: { art: 'api_key', anwendung_id: tenant.applicationId, key_id: tenant.keyId },
        betroffene_zeilen: { interessenten: 1, anfragen: 1, termine: 1 },
        erneut_angewendet_am: null,
      },
    ]);
    const text = await auditText();
    for (const value of personalValues(1)) expect(text).not.toContain(value);

    // The record's id carries the erasure's time, as every id of the app does.
    expect((daten[0] as { id: string }).id.slice(0, 14)).toBe(
      newId('loe', Date.parse('2026-12-02T10:00:00Z')).slice(0, 14),
    );
    const names = (await readdir(journalDir, { recursive: true })).filter((name) => name.endsWith('.json'));
    const entries = await Promise.all(
      names.map(async (name) => JSON.parse(await readFile(join(journalDir, name), 'utf8'))),
    );
    expect(entries).toContainEqual({
      record_id: daten[0]!.id,
      account_id: tenant.accountId,
      prospect_id: prospect,
      erased_at: '2026-12-02T10:00:00.000Z',
      requested_by: 'api_key',
      application_id: tenant.applicationId,
      key_id: tenant.keyId,
    });
    const journalText = JSON.stringify(entries);
    for (const value of personalValues(1)) expect(journalText).not.toContain(value);
  });

  it('records each nightly anonymisation by the rule, in the job run', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    ctx.clock.now = new Date('2024-01-10T12:00:00Z'); // kept until 2024-07-08
    const { prospect } = await prospectWithViewing(tenant, 2);
    const job = PROPERTY_JOBS.find((j) => j.name === 'anonymise')!;
    const at = new Date('2024-07-09T01:00:00Z');
    await job.run({ db: ctx.db.prisma, now: at, storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs }, {});

    expect((await log(tenant)).daten).toEqual([
      expect.objectContaining({
        interessent_id: prospect,
        art: 'anonymisierung',
        zeitpunkt: at.toISOString(),
        veranlasst_durch: { art: 'aufbewahrungsfrist', anwendung_id: null, key_id: null },
        betroffene_zeilen: { interessenten: 1, anfragen: 1, termine: 1 }, // the open viewing was cancelled
      }),
    ]);
    const text = await auditText();
    for (const value of personalValues(2)) expect(text).not.toContain(value);
  });

  it('pages newest first with a cursor, filters by time, refuses bis before von, and shows only the own account', async () => {
    const tenant = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    const ids: string[] = [];
    for (const [n, day] of [
      [3, '2026-10-01'],
      [4, '2026-10-02'],
      [5, '2026-10-03'],
    ] as const) {
      ctx.clock.now = new Date(`${day}T08:00:00Z`);
      const prospect = (await ctx.send('POST', '/leads/v1/interessenten', person(n), tenant.key)).json().id;
      await ctx.send('POST', `/leads/v1/interessenten/${prospect}/loeschung`, {}, tenant.key);
      ids.push(prospect);
    }
    const first = await log(tenant, '?limit=2');
    expect(first.daten.map((r) => r.interessent_id)).toEqual([ids[2], ids[1]]);
    const second = await log(tenant, `?limit=2&cursor=${encodeURIComponent(first.seite.naechster_cursor!)}`);
    expect(second.daten.map((r) => r.interessent_id)).toEqual([ids[0]]);
    expect(second.seite.naechster_cursor).toBeNull();

    const between = await log(tenant, '?von=2026-10-02T00:00:00Z&bis=2026-10-03T00:00:00Z');
    expect(between.daten.map((r) => r.interessent_id)).toEqual([ids[1]]);

    const wrong = await ctx.send(
      'GET',
      '/leads/v1/loeschprotokoll?von=2026-10-03T00:00:00Z&bis=2026-10-02T00:00:00Z',
      undefined,
      tenant.key,
    );
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().details).toEqual([{ feld: 'bis', grund: 'ausserhalb_bereich' }]);

    const stranger = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    expect((await log(stranger)).daten).toEqual([]);
  });
});

it('the database refuses a record of an unknown kind or requester, and an api_key record without its key', async () => {
  const insert = (id: string, kind: string, by: string, key: string | null) =>
    ctx.db.query(
      `INSERT INTO erasure_records (id, account_id, prospect_id, kind, requested_by, application_id, key_id,
                                    inquiries_count, appointments_count, created_at)
       VALUES ($1, 'acct_checks', 'int_checks', $2, $3, $4, $4, 0, 0, now())`,
      [id, kind, by, key],
    );
  await expect(insert('loe_c1', 'deletion', 'cli', null)).rejects.toThrow(/erasure_records_kind_check/);
  await expect(insert('loe_c2', 'erasure', 'operator', null)).rejects.toThrow(/erasure_records_requested_by_check/);
  await expect(insert('loe_c3', 'erasure', 'api_key', null)).rejects.toThrow(/erasure_records_requested_by_check/);
  await expect(insert('loe_c4', 'anonymisation', 'cli', null)).rejects.toThrow(/erasure_records_requested_by_check/);
  await insert('loe_c5', 'erasure', 'cli', null);
  await insert('loe_c6', 'erasure', 'api_key', 'key_checks');
});
