import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '@platform/testkit';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';
import { propertyDescriptor } from '../src/descriptor.js';

let ctx: PropertyTestContext;
let id: string;
beforeAll(async () => {
  ctx = await startPropertyApp();
  id = (await ctx.send('POST', '/v1/properties', validProperty())).json().id;
});
afterAll(() => ctx.close());

const raw = (method: string, url: string, headers: Record<string, string> = {}, payload?: string) =>
  ctx.app.inject({ method: method as 'GET', url, headers: { apikey: ctx.tenant.key, ...headers }, payload });

describe('hostile input never yields a 500 or a foreign error shape', () => {
  it.each([
    ['GET', '/v1/properties/abc%00def'],
    ['PATCH', '/v1/properties/abc%00def'],
    ['POST', '/v1/properties/abc%00def/archive'],
    ['DELETE', '/v1/api-keys/a%00b'],
    ['GET', `/v1/properties/${'a'.repeat(150)}`],
    ['GET', `/v1/properties/${'a'.repeat(300)}`],
    ['GET', '/v1/properties/%E0%A4%A'],
  ])('%s %s is 404 not_found', async (method, url) => {
    const res = await raw(
      method,
      url,
      { 'content-type': 'application/json' },
      method === 'PATCH' ? '{"rooms":1}' : undefined,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', message: expect.any(String) });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it.each([
    [{ ...validProperty(), title: 'a\u0000b' }, 'title'],
    [{ ...validProperty(), address: { postal_code: '10115', city: 'Berlin', street: 'x\u0000' } }, 'address.street'],
  ])('a NUL character in a body string is 422 invalid_format (%#)', async (body, field) => {
    const res = await raw('POST', '/v1/properties', { 'content-type': 'application/json' }, JSON.stringify(body));
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field, reason: 'invalid_format' }]);
  });

  it('a NUL character in a patch is 422 too', async () => {
    const res = await raw(
      'PATCH',
      `/v1/properties/${id}`,
      { 'content-type': 'application/json' },
      JSON.stringify({ description: '\u0000' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'description', reason: 'invalid_format' }]);
  });

  it('an escaped backslash before u0000 is ordinary text', async () => {
    const res = await raw(
      'PATCH',
      `/v1/properties/${id}`,
      { 'content-type': 'application/json' },
      '{"description":"C:\\\\u0000"}',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().description).toBe('C:\\u0000');
  });

  it.each(['1e400', '-1e400', '1.5', '', '25abc'])('limit=%s is 422 on limit', async (limit) => {
    const res = await raw('GET', `/v1/properties?limit=${limit}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].field).toBe('limit');
  });

  it.each([
    '/leads/v1/interessenten',
    '/leads/v1/anfragen',
    '/leads/v1/immobilien/prop_x/interessenten',
    '/leads/v1/interessenten/int_x/treffer',
    '/v1/webhooks',
  ])('limit=1e400 is 422 on every list, also %s', async (path) => {
    const res = await raw('GET', `${path}?limit=1e400`);
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json().details)).toContain('"limit"');
  });

  it.each(['/leads/v1/anfragen?immobilie_id=%00', '/v1/properties?status=%00', '/v1/webhooks?cursor=a%01b'])(
    'a control character in a query value is 422 invalid_format: %s',
    async (url) => {
      const res = await raw('GET', url);
      expect(res.statusCode).toBe(422);
      const field = url.slice(url.indexOf('?') + 1, url.indexOf('='));
      expect(JSON.stringify(res.json().details)).toMatch(
        new RegExp(`"(field|feld)":"${field}","(reason|grund)":"(invalid_format|ungueltiges_format)"`),
      );
    },
  );

  it.each([
    [
      'a consent date that is year 10000 in UTC',
      { einwilligung: { zweck: 'Kontakt', erteilt_am: '9999-12-31T23:59:59-23:59' } },
      'einwilligung.erteilt_am',
      'ungueltiges_format',
      { format: 'date-time' },
    ],
    [
      'a consent date that is year 999 in UTC',
      { einwilligung: { zweck: 'Kontakt', erteilt_am: '1000-01-01T00:30:00+01:00' } },
      'einwilligung.erteilt_am',
      'ungueltiges_format',
      { format: 'date-time' },
    ],
    [
      'a room minimum of 5e-324 (underflows in SQL)',
      { suchprofil: { zimmer_min: 5e-324 } },
      'suchprofil.zimmer_min',
      'ungueltiges_format',
      { vielfaches_von: 0.5 },
    ],
    [
      'a room minimum of 2.3',
      { suchprofil: { zimmer_min: 2.3 } },
      'suchprofil.zimmer_min',
      'ungueltiges_format',
      { vielfaches_von: 0.5 },
    ],
    [
      'a living-area minimum of 5e-324',
      { suchprofil: { wohnflaeche_min_qm: 5e-324 } },
      'suchprofil.wohnflaeche_min_qm',
      'ungueltiger_typ',
      { typ: 'integer' },
    ],
  ])(
    'refuses %s with 422 (was stored, then 500 on reading or matching)',
    async (_name, change, feld, grund, vorgabe) => {
      const res = await ctx.send('POST', '/leads/v1/interessenten', {
        nachname: 'Hostile',
        email: 'hostile@example.de',
        einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00Z' },
        ...change,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toEqual([{ feld, grund, meldung: expect.any(String), vorgabe }]);
    },
  );

  it('accepts half rooms and whole square metres', async () => {
    const res = await ctx.send('POST', '/leads/v1/interessenten', {
      nachname: 'Halb',
      email: 'halb@example.de',
      einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-11-01T10:00:00+01:00' },
      suchprofil: { zimmer_min: 2.5, wohnflaeche_min_qm: 60 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().suchprofil).toMatchObject({ zimmer_min: 2.5, wohnflaeche_min_qm: 60 });
  });

  it('answers the leads API in German also for an unknown route, a wrong method, a foreign cursor and an empty body', async () => {
    const route = await ctx.send('DELETE', '/leads/v1/nichts');
    expect(route.statusCode).toBe(404);
    expect(route.json()).toEqual({ code: 'nicht_gefunden', message: 'Keine Route DELETE /leads/v1/nichts.' });
    const method = await ctx.send('DELETE', '/leads/v1/interessenten');
    expect(method.statusCode).toBe(405);
    expect(method.headers.allow).toBe('GET, HEAD, POST');
    expect(method.json()).toEqual({
      code: 'methode_nicht_erlaubt',
      message: '/leads/v1/interessenten beantwortet DELETE nicht, nur GET, HEAD, POST.',
    });
    const propertyCursor = (await ctx.send('GET', '/v1/properties?limit=1')).json().page.next_cursor;
    const cursor = await ctx.send(
      'GET',
      `/leads/v1/interessenten?cursor=${encodeURIComponent(propertyCursor ?? 'x.y')}`,
    );
    expect(cursor.statusCode).toBe(422);
    expect(cursor.json()).toEqual({
      code: 'validierung_fehlgeschlagen',
      message: 'Der Cursor gilt nicht für diese Liste.',
      details: [{ feld: 'cursor', grund: 'ungueltiges_format' }],
    });
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/leads/v1/interessenten',
      headers: { apikey: ctx.tenant.key, 'content-type': 'application/json' },
      payload: '{',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('json_ungueltig');
    expect(empty.json().message).not.toMatch(/\b(the|is|not)\b/i);
  });

  it.each(['0000-01-01', '0999-12-31', '2027-02-30', '2027-13-01'])(
    'available_from %s is 422 invalid_format',
    async (date) => {
      const res = await ctx.send('POST', '/v1/properties', { ...validProperty(), available_from: date });
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toEqual([
        {
          field: 'available_from',
          reason: 'invalid_format',
          message: 'available_from must be a date (YYYY-MM-DD, years 1000–9999).',
          constraint: { format: 'date' },
        },
      ]);
    },
  );

  it('does not echo a forged or oversized X-Request-Id', async () => {
    for (const forged of ['forged id here', 'x'.repeat(3000), '<script>']) {
      const res = await raw('GET', '/v1/properties', { 'x-request-id': forged });
      expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{12}[0-9a-z]{8,}$/);
    }
    const ok = await raw('GET', '/v1/properties', { 'x-request-id': 'trace-123.abc' });
    expect(ok.headers['x-request-id']).toBe('trace-123.abc');
  });

  it('refuses an API key in the URL however it is spelt or encoded, on every route, and never logs it', async () => {
    for (const url of [
      `/v1/properties?api%6Bey=${ctx.tenant.key}`,
      `/v1/properties?APIKEY=${ctx.tenant.key}`,
      `/v1/properties?api-key=${ctx.tenant.key}`,
      `/v1/properties?apikey%5B%5D=${ctx.tenant.key}`,
      `/v1/openapi.json?apikey=${ctx.tenant.key}`,
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe('api_key_in_query');
    }
    await ctx.app.inject({ method: 'GET', url: `/v1/properties;apikey=${ctx.tenant.key}` });
    expect(ctx.logs.text).not.toContain(ctx.tenant.key);
  });

  it('answers a cursor walk with equal timestamps completely (id breaks ties)', async () => {
    const { key: tenantKey } = await createTenant(ctx.db.prisma, { service: propertyDescriptor });
    ctx.clock.now = new Date('2026-06-01T00:00:00Z'); // every row gets the same created_at
    const ids = new Set<string>();
    for (let i = 0; i < 7; i++)
      ids.add((await ctx.send('POST', '/v1/properties', validProperty(), tenantKey)).json().id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; page: { next_cursor: string | null } } = (
        await ctx.send(
          'GET',
          `/v1/properties?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          undefined,
          tenantKey,
        )
      ).json();
      seen.push(...page.data.map((p: { id: string }) => p.id));
      cursor = page.page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(ids);
  });
});
