import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TestApp } from '@platform/testkit';
import { startAgentPlatformApp, validAgent, type AgentPlatformTestContext } from './helpers.js';
import { agentPlatformDescriptor } from '../src/descriptor.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
});
afterAll(() => ctx.close());

const send = (...args: Parameters<TestApp['send']>) => ctx.send(...args);

/** A 422 with these details, compared on what is given (a detail's constraint and message come with it). */
const invalid = (details: object[]) => ({
  code: 'validation_failed',
  message: expect.any(String),
  details: details.map((detail) => expect.objectContaining(detail)),
});

async function create(input: object, key: string) {
  const res = await send('POST', '/v1/agents', input, key);
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('GET /v1/agents', () => {
  let key: string;
  let otherKey: string;
  const ids: string[] = []; // oldest first
  const retired = new Set<string>();
  const list = (query: string, apikey = key) => send('GET', `/v1/agents${query}`, undefined, apikey);
  const idsOf = (res: { json(): { data: { id: string }[] } }) => res.json().data.map((a) => a.id);

  beforeAll(async () => {
    key = (await createTenant(ctx.db.prisma, { service: agentPlatformDescriptor })).key;
    otherKey = (await createTenant(ctx.db.prisma, { service: agentPlatformDescriptor })).key;
    for (let i = 0; i < 30; i++) {
      ctx.clock.now = new Date(ctx.clock.now.getTime() + 1000); // distinct created_at, so the order is known
      ids.push((await create({ ...validAgent(), name: `Agent ${i}` }, key)).id);
    }
    for (const id of [ids[3], ids[17], ids[29]]) {
      expect((await send('POST', `/v1/agents/${id}/retire`, undefined, key)).statusCode).toBe(200);
      retired.add(id);
    }
    await create(validAgent(), otherKey); // must never show up
  });

  it('returns 25 by default, newest first, then the last 5', async () => {
    const first = await list('');
    expect(first.statusCode).toBe(200);
    expect(idsOf(first)).toEqual([...ids].reverse().slice(0, 25));
    expect(first.json().page).toEqual({ next_cursor: expect.any(String), has_more: true });
    const second = await list(`?cursor=${encodeURIComponent(first.json().page.next_cursor)}`);
    expect(idsOf(second)).toEqual([...ids].reverse().slice(25));
    expect(second.json().page).toEqual({ next_cursor: null, has_more: false });
  });

  it('walks the cursor and returns every row exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.statusCode).toBe(200);
      seen.push(...idsOf(res));
      cursor = res.json().page.next_cursor;
      expect(res.json().page.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(5);
    expect(seen).toEqual([...ids].reverse());
  });

  it('filters by status, and pages within the filter', async () => {
    const res = await list('?status=retired&limit=2');
    expect(idsOf(res)).toEqual([ids[29], ids[17]]);
    expect(res.json().data.every((a: { status: string }) => a.status === 'retired')).toBe(true);
    const rest = await list(`?status=retired&limit=2&cursor=${encodeURIComponent(res.json().page.next_cursor)}`);
    expect(idsOf(rest)).toEqual([ids[3]]);
    const active = await list('?status=active&limit=100');
    expect(idsOf(active)).toEqual([...ids].reverse().filter((id) => !retired.has(id)));
    expect((await list('?status=gone')).json()).toEqual(invalid([{ field: 'status', reason: 'not_allowed' }]));
  });

  it.each(['0', '101'])('refuses limit=%s with 422 out_of_range', async (limit) => {
    const res = await list(`?limit=${limit}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(
      invalid([
        {
          field: 'limit',
          reason: 'out_of_range',
          message: 'limit must be between 1 and 100.',
          constraint: { minimum: 1, maximum: 100 },
        },
      ]),
    );
  });

  it('accepts limit=1 and limit=100', async () => {
    expect(idsOf(await list('?limit=1'))).toEqual([ids[29]]);
    expect(idsOf(await list('?limit=100'))).toHaveLength(30);
  });

  it('refuses a tampered cursor and a cursor of another filter or account', async () => {
    const cursor: string = (await list('?limit=5')).json().page.next_cursor;
    const [payload, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify(['2000-01-01T00:00:00.000Z', 'agt_x'])).toString('base64url');
    const cursorError = invalid([{ field: 'cursor', reason: 'invalid_format' }]);
    for (const bad of [`${forged}.${signature}`, `${payload}.${signature.slice(0, -2)}xx`, 'garbage']) {
      const res = await list(`?cursor=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(422);
      expect(res.json()).toEqual(cursorError);
    }
    expect((await list(`?status=active&cursor=${encodeURIComponent(cursor)}`)).json()).toEqual(cursorError);
    expect((await list(`?cursor=${encodeURIComponent(cursor)}`, otherKey)).json()).toEqual(cursorError);
    expect((await list(`?cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(200);
  });
});
