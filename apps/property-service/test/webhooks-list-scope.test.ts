// GET /v1/webhooks follows the same rule as the single-endpoint routes: a key sees only the
// endpoints it could manage (every event type they receive is readable with its scopes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey } from '@platform/testkit';
import { propertyDescriptor } from '../src/descriptor.js';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

type Page = { data: { id: string; events: string[] }[]; page: { next_cursor: string | null; has_more: boolean } };

describe('GET /v1/webhooks with a key of fewer scopes', () => {
  it('lists only the endpoints the key could manage, in full pages with valid cursors', async () => {
    const register = async (events: string[]) => {
      ctx.clock.now = new Date(ctx.clock.now.getTime() + 1000); // distinct creation times: a defined order
      const res = await ctx.send('POST', '/v1/webhooks', { url: 'https://hooks.example.com/x', events });
      expect(res.statusCode).toBe(201);
      return res.json().id as string;
    };
    // Oldest first; the list is newest first. Readable with properties:read: p1, p2, p3.
    const p1 = await register(['property.created']);
    const l1 = await register(['listing.completed']);
    const mixed = await register(['property.updated', 'inquiry.scored']);
    const p2 = await register(['property.updated', 'property.archived']);
    const l2 = await register(['inquiry.received']);
    const p3 = await register(['property.created']);
    const l3 = await register(['settlement.created']);

    const reader = (
      await addKey(ctx.db.prisma, ctx.tenant, { service: propertyDescriptor, scopes: ['properties:read'] })
    ).key;
    const all = (await ctx.send('GET', '/v1/webhooks?limit=100', undefined, reader)).json() as Page;
    expect(all.data.map((w) => w.id)).toEqual([p3, p2, p1]);

    // Pages of two: full pages, a cursor that works, and has_more only while there is more.
    const first = (await ctx.send('GET', '/v1/webhooks?limit=2', undefined, reader)).json() as Page;
    expect(first.data.map((w) => w.id)).toEqual([p3, p2]);
    expect(first.page.has_more).toBe(true);
    const second = (
      await ctx.send(
        'GET',
        `/v1/webhooks?limit=2&cursor=${encodeURIComponent(first.page.next_cursor!)}`,
        undefined,
        reader,
      )
    ).json() as Page;
    expect(second.data.map((w) => w.id)).toEqual([p1]);
    expect(second.page).toEqual({ next_cursor: null, has_more: false });

    // The same rule as the single-endpoint routes: listed ⇔ readable.
    for (const id of [p1, p2, p3])
      expect((await ctx.send('GET', `/v1/webhooks/${id}`, undefined, reader)).statusCode).toBe(200);
    for (const id of [l1, mixed, l2, l3])
      expect((await ctx.send('GET', `/v1/webhooks/${id}`, undefined, reader)).statusCode).toBe(403);
    expect(JSON.stringify(all)).not.toContain('listing.completed');

    // A key with every scope sees all seven; a cursor of one key's list is not valid for another's filter.
    const full = (await ctx.send('GET', '/v1/webhooks?limit=100')).json() as Page;
    expect(full.data.map((w) => w.id)).toEqual([l3, p3, l2, p2, mixed, l1, p1]);
    const crossed = await ctx.send('GET', `/v1/webhooks?limit=2&cursor=${encodeURIComponent(first.page.next_cursor!)}`);
    expect(crossed.statusCode).toBe(422);

    const leads = (await addKey(ctx.db.prisma, ctx.tenant, { service: propertyDescriptor, scopes: ['leads:read'] }))
      .key;
    expect(((await ctx.send('GET', '/v1/webhooks', undefined, leads)).json() as Page).data.map((w) => w.id)).toEqual([
      l2,
    ]);
    const none = (await addKey(ctx.db.prisma, ctx.tenant, { service: propertyDescriptor, scopes: ['keys:manage'] }))
      .key;
    expect(((await ctx.send('GET', '/v1/webhooks', undefined, none)).json() as Page).data).toEqual([]);
  });
});
