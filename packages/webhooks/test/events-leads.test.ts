import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeSecurity, type TestApp } from '@platform/testkit';
import { eventsService, keyWith, record, startEventsApp } from './events-app.js';

let ctx: TestApp;
const ids: Record<string, string> = {};
const minutesAgo = (minutes: number) => new Date(ctx.clock.now.getTime() - minutes * 60_000);

beforeAll(async () => {
  ctx = await startEventsApp();
  ids.thing = await record(ctx, 'thing.created', minutesAgo(30));
  ids.stuff = await record(ctx, 'stuff.found', minutesAgo(20));
  ids.stuff2 = await record(ctx, 'stuff.found', minutesAgo(10));
  ids.theirs = await record(ctx, 'stuff.found', minutesAgo(5), ctx.other.accountId);
});
afterAll(() => ctx.close());

it('lists only the events of its own domain, with German names, in the German list body', async () => {
  const res = await ctx.send('GET', '/leads/v1/ereignisse?limit=1');
  expect(res.statusCode, res.body).toBe(200);
  const seite = res.json() as { daten: Record<string, unknown>[]; seite: { naechster_cursor: string } };
  expect(seite.daten).toEqual([
    { id: ids.stuff2, typ: 'stuff.found', angelegt_am: minutesAgo(10).toISOString(), daten: { id_of: 'stuff.found' } },
  ]);
  expect(seite.seite.naechster_cursor).toEqual(expect.any(String));
  const next = await ctx.send(
    'GET',
    `/leads/v1/ereignisse?limit=1&cursor=${encodeURIComponent(seite.seite.naechster_cursor)}`,
  );
  expect(next.json()).toEqual({
    daten: [expect.objectContaining({ id: ids.stuff })],
    seite: { naechster_cursor: null, hat_weitere: false },
  });
});

it('reads one event; an event of another domain or account is 404 in German', async () => {
  const res = await ctx.send('GET', `/leads/v1/ereignisse/${ids.stuff}`);
  expect(res.json()).toMatchObject({ id: ids.stuff, typ: 'stuff.found' });
  for (const id of [ids.thing, ids.theirs]) {
    const missing = await ctx.send('GET', `/leads/v1/ereignisse/${id}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'nicht_gefunden', message: 'Kein Ereignis mit dieser ID.' });
  }
});

it('answers filter errors in German: a type of another domain, an empty time range', async () => {
  const other = await ctx.send('GET', '/leads/v1/ereignisse?typ=thing.created');
  expect(other.statusCode).toBe(422);
  expect(other.json()).toMatchObject({
    code: 'validierung_fehlgeschlagen',
    details: [{ feld: 'typ.0', grund: 'nicht_erlaubt' }],
  });
  const at = encodeURIComponent(minutesAgo(15).toISOString());
  const empty = await ctx.send('GET', `/leads/v1/ereignisse?angelegt_ab=${at}&angelegt_vor=${at}`);
  expect(empty.json()).toEqual({
    code: 'validierung_fehlgeschlagen',
    message: 'angelegt_vor muss nach angelegt_ab liegen.',
    details: [{ feld: 'angelegt_vor', grund: 'ausserhalb_bereich' }],
  });
  const key = await keyWith(ctx, ['things:read']);
  const refused = await ctx.send('GET', '/leads/v1/ereignisse?typ=stuff.found', undefined, key);
  expect(refused.json()).toMatchObject({
    code: 'scope_fehlt',
    details: [{ feld: 'stuff:read', grund: 'nicht_erteilt' }],
  });
});

describeSecurity('events in the German API', () => ({
  prisma: ctx.db.prisma,
  service: eventsService,
  dialect: 'de',
  inject: (request) => ctx.app.inject(request as never),
  tenant: ctx.tenant,
  clock: ctx.clock,
  routes: [
    { method: 'GET', url: '/leads/v1/ereignisse', scope: 'stuff:read' },
    {
      method: 'GET',
      url: `/leads/v1/ereignisse/${ids.stuff}`,
      scope: 'stuff:read',
      otherTenantUrl: `/leads/v1/ereignisse/${ids.theirs}`,
      missingUrl: '/leads/v1/ereignisse/evt_missing',
    },
  ],
  registeredRoutes: ctx.app.authenticatedRoutes.filter((route) => route.url.startsWith('/leads/v1/ereignisse')),
  prefix: '/leads/v1',
}));
