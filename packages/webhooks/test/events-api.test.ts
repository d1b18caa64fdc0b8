import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSecurity, type TestApp } from '@platform/testkit';
import { eventsService, keyWith, record, startEventsApp } from './events-app.js';

interface Page {
  data: { id: string; type: string; created_at: string; data: Record<string, unknown> }[];
  page: { next_cursor: string | null; has_more: boolean };
}

let ctx: TestApp;
const ids: Record<string, string> = {};
const minutesAgo = (minutes: number) => new Date(ctx.clock.now.getTime() - minutes * 60_000);
const list = async (query = '', key?: string) => {
  const res = await ctx.send('GET', `/v1/events${query}`, undefined, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
};

beforeAll(async () => {
  ctx = await startEventsApp();
  ids.old = await record(ctx, 'thing.created', minutesAgo(31 * 24 * 60));
  ids.created = await record(ctx, 'thing.created', minutesAgo(50));
  ids.stuff = await record(ctx, 'stuff.found', minutesAgo(40));
  ids.archived = await record(ctx, 'thing.archived', minutesAgo(30));
  ids.created2 = await record(ctx, 'thing.created', minutesAgo(20));
  ids.theirs = await record(ctx, 'thing.created', minutesAgo(10), ctx.other.accountId);
  ids.test = await record(ctx, 'webhook.test', minutesAgo(5));
});
afterAll(() => ctx.close());

describe('GET /v1/events', () => {
  it("lists the account's events of the last 30 days, newest first, each the webhook delivery body", async () => {
    const page = await list();
    expect(page.data.map((e) => e.id)).toEqual([ids.created2, ids.archived, ids.stuff, ids.created]);
    const [{ payload }] = await ctx.db.prisma.$queryRawUnsafe<{ payload: string }[]>(
      'SELECT payload FROM outbox_events WHERE id = $1',
      ids.archived,
    );
    expect(page.data[1]).toEqual(JSON.parse(payload));
    expect(page.page).toEqual({ next_cursor: null, has_more: false });
  });

  it('filters by one or several types and by creation time', async () => {
    expect((await list('?type=thing.created')).data.map((e) => e.id)).toEqual([ids.created2, ids.created]);
    expect((await list('?type=thing.archived&type=stuff.found')).data.map((e) => e.id)).toEqual([
      ids.archived,
      ids.stuff,
    ]);
    const after = encodeURIComponent(minutesAgo(40).toISOString());
    const before = encodeURIComponent(minutesAgo(20).toISOString());
    expect((await list(`?created_after=${after}&created_before=${before}`)).data.map((e) => e.id)).toEqual([
      ids.archived,
      ids.stuff,
    ]);
  });

  it('pages with a cursor bound to its filters', async () => {
    const first = await list('?limit=3');
    expect(first.page.has_more).toBe(true);
    const second = await list(`?limit=3&cursor=${encodeURIComponent(first.page.next_cursor!)}`);
    expect([...first.data, ...second.data].map((e) => e.id)).toEqual([
      ids.created2,
      ids.archived,
      ids.stuff,
      ids.created,
    ]);
    expect(second.page).toEqual({ next_cursor: null, has_more: false });
    const other = await ctx.send(
      'GET',
      `/v1/events?type=thing.created&cursor=${encodeURIComponent(first.page.next_cursor!)}`,
    );
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ details: [{ field: 'cursor', reason: 'invalid_format' }] });
  });

  it('shows a key only the types whose data it may read, and refuses a filter on another type (403)', async () => {
    const things = await keyWith(ctx, ['things:read']);
    expect((await list('', things)).data.map((e) => e.id)).toEqual([ids.created2, ids.archived, ids.created]);
    const refused = await ctx.send('GET', '/v1/events?type=stuff.found', undefined, things);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'scope_missing',
      details: [{ field: 'stuff:read', reason: 'not_granted' }],
    });
    expect((await list('', await keyWith(ctx, ['keys:manage']))).data).toEqual([]);
  });

  it('refuses unknown types and an empty time range (422)', async () => {
    const unknown = await ctx.send('GET', '/v1/events?type=thing.eaten');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ details: [{ field: 'type.0', reason: 'not_allowed' }] });
    const at = encodeURIComponent(minutesAgo(30).toISOString());
    const empty = await ctx.send('GET', `/v1/events?created_after=${at}&created_before=${at}`);
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({ details: [{ field: 'created_before', reason: 'out_of_range' }] });
  });
});

describe('GET /v1/events/{eventId}', () => {
  it('reads one event as listed', async () => {
    const res = await ctx.send('GET', `/v1/events/${ids.stuff}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual((await list('?type=stuff.found')).data[0]);
  });

  it("answers 404 for an event older than 30 days, another account's, a test event, as for a missing one", async () => {
    const missing = await ctx.send('GET', '/v1/events/evt_missing');
    expect(missing.statusCode).toBe(404);
    for (const id of [ids.old, ids.theirs, ids.test]) {
      const res = await ctx.send('GET', `/v1/events/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual(missing.json());
    }
  });

  it('answers 403 for an event whose data the key may not read', async () => {
    const res = await ctx.send('GET', `/v1/events/${ids.stuff}`, undefined, await keyWith(ctx, ['things:read']));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ details: [{ field: 'stuff:read', reason: 'not_granted' }] });
  });
});

describeSecurity('events API', () => ({
  prisma: ctx.db.prisma,
  service: eventsService,
  dialect: 'en',
  inject: (request) => ctx.app.inject(request as never),
  tenant: ctx.tenant,
  clock: ctx.clock,
  routes: [
    { method: 'GET', url: '/v1/events' },
    {
      method: 'GET',
      url: `/v1/events/${ids.created}`,
      otherTenantUrl: `/v1/events/${ids.theirs}`,
      missingUrl: '/v1/events/evt_missing',
    },
  ],
  registeredRoutes: ctx.app.authenticatedRoutes.filter((route) => route.url.startsWith('/v1/events')),
  prefix: '/v1',
}));
