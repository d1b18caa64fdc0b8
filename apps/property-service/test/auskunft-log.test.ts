// The Auskunftsprotokoll (issue 37): each export recorded without personal data, kept after the
// prospect's erasure (which answers 404 from then on). Content: auskunft.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeadsClient, unwrap } from '@platform/client';
import { auskunftFixtures, person } from './auskunft-helpers.js';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
let fixtures: ReturnType<typeof auskunftFixtures>;
beforeAll(async () => {
  ctx = await startPropertyApp();
  fixtures = auskunftFixtures(ctx);
  ctx.clock.now = new Date('2026-11-20T10:00:00Z');
});
afterAll(() => ctx.close());

describe('the Auskunftsprotokoll and erasure', () => {
  it('records each export (format, key), keeps the records after erasure, and answers 404 then', async () => {
    const tenant = ctx.other;
    const { id } = await fixtures.fullProspect(tenant, 'Eraseme');
    ctx.clock.now = new Date('2026-11-22T09:00:00Z');
    expect((await fixtures.auskunft(id, tenant.key)).statusCode).toBe(200);
    ctx.clock.now = new Date('2026-11-22T09:05:00Z');
    expect((await fixtures.auskunftPdf(id, tenant.key)).statusCode).toBe(200);

    const log = await ctx.send('GET', `/leads/v1/auskunftsprotokoll?interessent_id=${id}`, undefined, tenant.key);
    expect(log.statusCode).toBe(200);
    const by = { anwendung_id: tenant.applicationId, key_id: tenant.keyId };
    const entry = (format: string, zeitpunkt: string) => ({
      id: expect.any(String),
      interessent_id: id,
      format,
      zeitpunkt,
      veranlasst_durch: by,
    });
    expect(log.json().daten).toEqual([
      entry('pdf', '2026-11-22T09:05:00.000Z'),
      entry('json', '2026-11-22T09:00:00.000Z'),
    ]);
    // another account's log does not hold them
    const theirs = await ctx.send('GET', `/leads/v1/auskunftsprotokoll?interessent_id=${id}`);
    expect(theirs.json().daten).toEqual([]);

    expect((await ctx.send('POST', `/leads/v1/interessenten/${id}/loeschung`, {}, tenant.key)).statusCode).toBe(200);
    const unknown = await fixtures.auskunft('int_unknown', tenant.key);
    for (const after of [await fixtures.auskunft(id, tenant.key), await fixtures.auskunftPdf(id, tenant.key)]) {
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

  it('filters the log by von (inclusive) and bis (exclusive), and refuses bis not after von', async () => {
    const tenant = ctx.other;
    const { id } = await fixtures.fullProspect(tenant, 'Zeitraum');
    for (const time of ['2026-11-23T09:00:00Z', '2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z']) {
      ctx.clock.now = new Date(time);
      expect((await fixtures.auskunft(id, tenant.key)).statusCode).toBe(200);
    }
    const page = (query: string) =>
      ctx.send('GET', `/leads/v1/auskunftsprotokoll?interessent_id=${id}&${query}`, undefined, tenant.key);
    const times = (await page('von=2026-11-23T10:00:00Z&bis=2026-11-23T11:00:00Z'))
      .json()
      .daten.map((r: { zeitpunkt: string }) => r.zeitpunkt);
    expect(times).toEqual(['2026-11-23T10:00:00.000Z']);
    for (const query of [
      'von=2026-11-22T00:00:00Z&bis=2026-11-21T00:00:00Z',
      'von=2026-11-22T00:00:00Z&bis=2026-11-22T00:00:00Z',
    ]) {
      const res = await page(query);
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toEqual([expect.objectContaining({ feld: 'bis' })]);
    }
  });

  it('works through the typed client over real HTTP', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const client = createLeadsClient({ baseUrl: address, apiKey: ctx.tenant.key });
    const { id } = await fixtures.fullProspect(ctx.tenant, 'Clienta');
    const body = await unwrap(
      client.GET('/leads/v1/interessenten/{interessentId}/auskunft', { params: { path: { interessentId: id } } }),
    );
    expect(body.stammdaten.nachname).toBe('Clientanachname');
    expect(body.anfragen).toHaveLength(2);
    expect(body.treffer).toHaveLength(2);
    expect(body.termine[0]?.fruehere_zeiten).toHaveLength(1);
    const log = await unwrap(client.GET('/leads/v1/auskunftsprotokoll', { params: { query: { interessent_id: id } } }));
    expect(log.daten.map((r) => r.format)).toEqual(['json']);
  });
});
