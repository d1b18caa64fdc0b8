import { whileHeld, type TestApp } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const send = (...args: Parameters<TestApp['send']>) => ctx.send(...args);

async function createFull() {
  const res = await send('POST', '/v1/properties', {
    ...validProperty(),
    description: 'Old description',
    energy_certificate: { type: 'consumption', final_energy_demand_kwh: 120, efficiency_class: 'D' },
    commission: { buyer_percent: 3.57, engaged_by: 'buyer', note: 'incl. VAT' },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('PATCH /v1/properties/{propertyId}', () => {
  it("accepts the spec's sample (only purchase_price_eur) and returns the whole updated property", async () => {
    const before = await createFull();
    ctx.clock.now = new Date(Date.now() + 60_000);
    const res = await send('PATCH', `/v1/properties/${before.id}`, { purchase_price_eur: 399000 });
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after).toEqual({ ...before, purchase_price_eur: 399000, updated_at: ctx.clock.now.toISOString() });
  });

  it('leaves absent fields unchanged and clears optional fields sent as null', async () => {
    const before = await createFull();
    const res = await send('PATCH', `/v1/properties/${before.id}`, {
      description: null,
      rooms: null,
      commission: null,
    });
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after.description).toBeNull();
    expect(after.rooms).toBeNull();
    expect(after.commission).toBeNull();
    expect(after.title).toBe(before.title);
    expect(after.energy_certificate).toEqual(before.energy_certificate);
    expect((await send('GET', `/v1/properties/${before.id}`)).json()).toEqual(after);
  });

  it('accepts the merge-patch media type', async () => {
    const before = await createFull();
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: `/v1/properties/${before.id}`,
      headers: { apikey: ctx.tenant.key, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ rooms: 4 }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().rooms).toBe(4);
  });

  it('merges nested objects field by field', async () => {
    const before = await createFull();
    const res = await send('PATCH', `/v1/properties/${before.id}`, {
      address: { city: 'Potsdam' },
      energy_certificate: { efficiency_class: 'B', final_energy_demand_kwh: null },
    });
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after.address).toEqual({ ...before.address, city: 'Potsdam' });
    expect(after.energy_certificate).toEqual({
      ...before.energy_certificate,
      efficiency_class: 'B',
      final_energy_demand_kwh: null,
    });
  });

  it('lets required fields change but not be cleared', async () => {
    const before = await createFull();
    const changed = await send('PATCH', `/v1/properties/${before.id}`, { type: 'house', title: 'Now a house' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ type: 'house', title: 'Now a house' });
    // null would clear a field that must have a value: `missing`, with the type it takes (docs/errors.md).
    for (const [body, field, type] of [
      [{ title: null }, 'title', 'string'],
      [{ type: null }, 'type', 'string'],
      [{ address: null }, 'address', 'object'],
      [{ address: { postal_code: null } }, 'address.postal_code', 'string'],
    ] as const) {
      const res = await send('PATCH', `/v1/properties/${before.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().details).toContainEqual({
        field,
        reason: 'missing',
        message: `${field} is required and cannot be null (send a value of type ${type}).`,
        constraint: { type },
      });
    }
    expect((await send('GET', `/v1/properties/${before.id}`)).json().title).toBe('Now a house');
  });

  it('applies the constraints to what is sent', async () => {
    const before = await createFull();
    const res = await send('PATCH', `/v1/properties/${before.id}`, {
      title: 't'.repeat(121),
      address: { postal_code: '1234' },
      status: 'sold',
      extra: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        {
          field: 'title',
          reason: 'too_long',
          message: 'title must be between 1 and 120 characters long.',
          constraint: { min_length: 1, max_length: 120 },
        },
        {
          field: 'address.postal_code',
          reason: 'invalid_format',
          message: 'address.postal_code must match the pattern ^[0-9]{5}$.',
          constraint: { pattern: '^[0-9]{5}$' },
        },
        {
          field: 'status',
          reason: 'not_allowed',
          message: 'status is read-only and cannot be written.',
          constraint: { read_only: true },
        },
        { field: 'extra', reason: 'unknown_field' },
      ]),
    );
  });

  it('keeps both fields when two patches wait on the same row', async () => {
    const before = await createFull();
    // Hold the row so that both patches start before either has written; without the row lock
    // both would merge into the same old document and the second write would undo the first.
    const {
      result: [a, b],
      waited,
    } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRaw`SELECT id FROM properties WHERE id = ${before.id} FOR UPDATE`,
      () =>
        Promise.all([
          send('PATCH', `/v1/properties/${before.id}`, { rooms: 5 }),
          send('PATCH', `/v1/properties/${before.id}`, { floor: 7 }),
        ]),
      2,
    );
    expect(waited).toBe(2);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await send('GET', `/v1/properties/${before.id}`)).json()).toMatchObject({ rooms: 5, floor: 7 });
  });

  it("answers another account's property with 404 and does not change it", async () => {
    const theirs = (await send('POST', '/v1/properties', validProperty(), ctx.other.key)).json();
    const res = await send('PATCH', `/v1/properties/${theirs.id}`, { title: 'mine now' });
    expect(res.statusCode).toBe(404);
    expect((await send('GET', `/v1/properties/${theirs.id}`, undefined, ctx.other.key)).json().title).toBe(
      theirs.title,
    );
  });
});

describe('status actions', () => {
  it('walks draft → active → reserved → sold → archived → draft', async () => {
    const { id } = await createFull();
    const steps: [string, string][] = [
      ['activate', 'active'],
      ['reserve', 'reserved'],
      ['mark-sold', 'sold'],
      ['archive', 'archived'],
      ['restore', 'draft'],
    ];
    for (const [action, status] of steps) {
      const res = await send('POST', `/v1/properties/${id}/${action}`);
      expect(res.statusCode, action).toBe(200);
      expect(res.json().status).toBe(status);
    }
  });

  it('refuses an illegal transition with 409 invalid_transition', async () => {
    const { id } = await createFull();
    const res = await send('POST', `/v1/properties/${id}/mark-sold`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'invalid_transition',
      message: expect.stringContaining('draft'),
      details: [{ field: 'status', reason: 'not_allowed' }],
    });
    expect((await send('GET', `/v1/properties/${id}`)).json().status).toBe('draft');
  });

  it('archives, refuses a second archive and refuses patches of an archived property', async () => {
    const { id } = await createFull();
    expect((await send('POST', `/v1/properties/${id}/archive`)).json().status).toBe('archived');
    expect((await send('POST', `/v1/properties/${id}/archive`)).statusCode).toBe(409);
    const patch = await send('PATCH', `/v1/properties/${id}`, { rooms: 3 });
    expect(patch.statusCode).toBe(409);
    expect(patch.json().code).toBe('conflict');
  });

  it('refuses a body with fields on an action, and accepts none or {}', async () => {
    const { id } = await createFull();
    const res = await send('POST', `/v1/properties/${id}/activate`, { reason: 'why not' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'reason', reason: 'unknown_field' }]);
    expect((await send('POST', `/v1/properties/${id}/activate`, {})).json().status).toBe('active');
    const noBody = await ctx.app.inject({
      method: 'POST',
      url: `/v1/properties/${id}/reserve`,
      headers: { apikey: ctx.tenant.key },
    });
    expect(noBody.json().status).toBe('reserved');
  });

  it('rents and relists', async () => {
    const { id } = await createFull();
    await send('POST', `/v1/properties/${id}/activate`);
    expect((await send('POST', `/v1/properties/${id}/mark-rented`)).json().status).toBe('rented');
    expect((await send('POST', `/v1/properties/${id}/relist`)).json().status).toBe('active');
  });
});
