import type { TestApp } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const send = (...args: Parameters<TestApp['send']>) => ctx.send(...args);

describe('POST /v1/properties', () => {
  it('creates a draft property and returns it whole with 201', async () => {
    const res = await send('POST', '/v1/properties', validProperty());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      type: 'apartment',
      status: 'draft',
      title: 'Bright two-room flat near the park',
      address: {
        street: 'Parkstraße 5',
        postal_code: '10115',
        city: 'Berlin',
        country: 'US',
        location_precision: 'street',
      },
      living_area_sqm: 64.5,
      rooms: 2,
      purchase_price_eur: 420000,
      cold_rent_eur: null,
      energy_certificate: null,
      commission: null,
      media_count: 0,
    });
    expect(body.id).toMatch(/^prop_[0-9a-z]{26}$/);
    expect(body.created_at).toBe(body.updated_at);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps every field of the spec, nested objects included', async () => {
    const input = {
      ...validProperty(),
      description: 'Quiet, south-facing.',
      lot_size_sqm: 0,
      year_built: 1910,
      floor: 3,
      cold_rent_eur: 1200,
      service_charges_eur: 250,
      available_from: '2027-01-01',
      address: {
        street: 'Parkstraße 5',
        postal_code: '10115',
        city: 'Berlin',
        country: 'DE',
        location_precision: 'exact',
      },
      energy_certificate: {
        type: 'demand',
        final_energy_demand_kwh: 88.5,
        energy_source: 'district heating',
        system_year: 1998,
        efficiency_class: 'A+',
        valid_until: '2030-05-31',
      },
      commission: { buyer_percent: 3.57, seller_percent: 3.57, engaged_by: 'both', note: 'incl. VAT' },
    };
    const created = await send('POST', '/v1/properties', input);
    expect(created.statusCode).toBe(201);
    const fetched = await send('GET', `/v1/properties/${created.json().id}`);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toMatchObject({
      ...input,
      energy_certificate: { ...input.energy_certificate, exemption: null },
    });
  });

  it.each([
    [
      'a title of 121 characters',
      { title: 'x'.repeat(121) },
      { field: 'title', reason: 'too_long', constraint: { min_length: 1, max_length: 120 } },
    ],
    [
      'postal code 1234',
      { address: { postal_code: '1234', city: 'Berlin' } },
      { field: 'address.postal_code', reason: 'invalid_format', constraint: { pattern: '^[0-9]{5}$' } },
    ],
    [
      'a price given as text',
      { purchase_price_eur: '420000' },
      { field: 'purchase_price_eur', reason: 'invalid_type', constraint: { type: 'integer' } },
    ],
    ['rooms as a boolean', { rooms: true }, { field: 'rooms', reason: 'invalid_type', constraint: { type: 'number' } }],
    [
      'an unknown type',
      { type: 'castle' },
      {
        field: 'type',
        reason: 'not_allowed',
        constraint: { allowed: ['apartment', 'house', 'land', 'commercial', 'parking'] },
      },
    ],
    ['an unknown field', { garden: true }, { field: 'garden', reason: 'unknown_field' }],
    [
      'an unknown nested field',
      { address: { postal_code: '10115', city: 'Berlin', planet: 'Earth' } },
      { field: 'address.planet', reason: 'unknown_field' },
    ],
    [
      'the read-only status',
      { status: 'active' },
      { field: 'status', reason: 'not_allowed', constraint: { read_only: true } },
    ],
    ['the read-only id', { id: 'prop_mine' }, { field: 'id', reason: 'not_allowed', constraint: { read_only: true } }],
    [
      'a negative price',
      { purchase_price_eur: -1 },
      {
        field: 'purchase_price_eur',
        reason: 'out_of_range',
        constraint: { minimum: 0, maximum: 2147483647 },
      },
    ],
    [
      'a malformed date',
      { available_from: '01.01.2027' },
      { field: 'available_from', reason: 'invalid_format', constraint: { format: 'date' } },
    ],
  ])('refuses %s with 422 and a detail', async (_name, change, detail) => {
    const res = await send('POST', '/v1/properties', { ...validProperty(), ...change });
    expect(res.statusCode).toBe(422);
    // A detail with a constraint also says it in words (the words are tested in packages/http).
    const expected = 'constraint' in detail ? { ...detail, message: expect.any(String) } : detail;
    expect(res.json()).toEqual({ code: 'validation_failed', message: expect.any(String), details: [expected] });
  });

  it('reports every missing required field at once', async () => {
    const res = await send('POST', '/v1/properties', { address: { city: 'Berlin' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        { field: 'type', reason: 'missing' },
        { field: 'title', reason: 'missing' },
        { field: 'address.postal_code', reason: 'missing' },
      ]),
    );
  });

  it('answers malformed JSON with 400 invalid_json and a wrong content type with 415', async () => {
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/v1/properties',
      headers: { apikey: ctx.tenant.key, 'content-type': 'application/json' },
      payload: '{"type": "house",',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 'invalid_json', message: expect.any(String) });
    const text = await ctx.app.inject({
      method: 'POST',
      url: '/v1/properties',
      headers: { apikey: ctx.tenant.key, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('unsupported_media_type');
  });

  it('answers a body over the limit with 413', async () => {
    const res = await send('POST', '/v1/properties', { ...validProperty(), description: 'x'.repeat(1_100_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });
});

describe('GET /v1/properties/{propertyId}', () => {
  it('answers an unknown id with 404 not_found', async () => {
    const res = await send('GET', '/v1/properties/prop_doesnotexist');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', message: 'No property with this id.' });
  });

  it("answers another account's property exactly like a missing one", async () => {
    const theirs = (await send('POST', '/v1/properties', validProperty(), ctx.other.key)).json();
    const res = await send('GET', `/v1/properties/${theirs.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual((await send('GET', '/v1/properties/prop_doesnotexist')).json());
  });
});
