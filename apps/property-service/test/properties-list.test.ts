import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '@platform/testkit';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';
import { propertyDescriptor } from '../src/descriptor.js';

let ctx: PropertyTestContext;
let key: string;
const ids: string[] = [];

beforeAll(async () => {
  ctx = await startPropertyApp();
  key = (await createTenant(ctx.db.prisma, { service: propertyDescriptor })).key;
  for (let i = 0; i < 57; i++) {
    ctx.clock.now = new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000); // distinct created_at, a stable order
    const type = i % 3 === 0 ? 'house' : 'apartment';
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/properties',
      headers: { apikey: key },
      payload: { ...validProperty(), type, title: `Property ${i}` },
    });
    ids.push(res.json().id);
  }
  // one property of another account, which must never show up
  await ctx.app.inject({
    method: 'POST',
    url: '/v1/properties',
    headers: { apikey: ctx.other.key },
    payload: validProperty(),
  });
});
afterAll(() => ctx.close());

const list = (query: string) =>
  ctx.app.inject({ method: 'GET', url: `/v1/properties${query}`, headers: { apikey: key } });

describe('GET /v1/properties', () => {
  it('returns 25 by default, newest first, with a next cursor', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(25);
    expect(body.data[0].id).toBe(ids.at(-1));
    expect(body.page).toEqual({ next_cursor: expect.any(String), has_more: true });
  });

  it.each(['0', '101', '-1', 'abc'])('refuses limit=%s', async (limit) => {
    const res = await list(`?limit=${limit}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].field).toBe('limit');
  });

  it('walks the cursor and returns every row exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...body.data.map((p: { id: string }) => p.id));
      cursor = body.page.next_cursor;
      expect(body.page.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(6);
    expect(seen).toHaveLength(57);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it('filters by type and status', async () => {
    const houses = (await list('?type=house&limit=100')).json();
    expect(houses.data).toHaveLength(19);
    expect(houses.data.every((p: { type: string }) => p.type === 'house')).toBe(true);
    await ctx.app.inject({ method: 'POST', url: `/v1/properties/${ids[0]}/activate`, headers: { apikey: key } });
    const active = (await list('?status=active')).json();
    expect(active.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect((await list('?status=gone')).statusCode).toBe(422);
  });

  it('refuses a tampered cursor and a cursor of another filter', async () => {
    const cursor: string = (await list('?limit=5')).json().page.next_cursor;
    const [payload, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify(['2000-01-01T00:00:00.000Z', 'prop_x'])).toString('base64url');
    for (const bad of [`${forged}.${signature}`, `${payload}.${signature.slice(0, -2)}xx`, 'garbage']) {
      const res = await list(`?cursor=${encodeURIComponent(bad)}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toEqual([{ field: 'cursor', reason: 'invalid_format' }]);
    }
    expect((await list(`?type=house&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(422);
  });
});
