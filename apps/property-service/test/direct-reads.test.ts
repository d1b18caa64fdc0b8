import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, type Db } from '@platform/db';
import { createTenant, createTestDatabase, newestFirstIds, walkPagesLikePrisma } from '@platform/testkit';
import { ApiError, CursorCodec, NEWEST_FIRST } from '@platform/http';
import { propertyDescriptor } from '../src/descriptor.js';
import { propertyRepository, type PropertyRow } from '../src/properties/repository.js';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';

// The repository reads properties with SQL through the pg pool (and through $queryRawUnsafe in a
// transaction): every row must be exactly what Prisma's query layer reads.

let ctx: PropertyTestContext;
let db: Db;
beforeAll(async () => {
  ctx = await startPropertyApp();
  db = ctx.db.prisma;
});
afterAll(() => ctx.close());

const prismaRow = (accountId: string, id: string) => db.property.findFirst({ where: { id, account_id: accountId } });

async function create(overrides: Record<string, unknown> = {}, key = ctx.tenant.key): Promise<string> {
  const res = await ctx.send('POST', '/v1/properties', { ...validProperty(), ...overrides }, key);
  if (res.statusCode !== 201) throw new Error(`property not created: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}

/** A sold property with every column set (by Prisma those the API keeps apart: an exemption beside a certificate, tenant months beside `both`). */
async function fullProperty(): Promise<string> {
  const id = await create({
    description: 'Quiet, south-facing.',
    address: {
      street: 'Parkstraße 5',
      postal_code: '10115',
      city: 'Berlin',
      country: 'DE',
      location_precision: 'exact',
    },
    living_area_sqm: 64.5,
    lot_size_sqm: 120.25,
    rooms: 2.5,
    year_built: 1910,
    floor: 3,
    purchase_price_eur: 420_000,
    cold_rent_eur: 1200,
    service_charges_eur: 250,
    available_from: '2027-01-01',
    energy_certificate: {
      type: 'demand',
      final_energy_demand_kwh: 28.5,
      energy_source: 'district heating',
      system_year: 1998,
      efficiency_class: 'A+',
      valid_until: '2030-05-31',
    },
    commission: {
      buyer_percent: 3.57,
      seller_percent: 2.38,
      engaged_by: 'both',
      note: 'incl. VAT',
      buyer_is_consumer: false,
      landlord_months: 1.5,
    },
  });
  expect((await ctx.send('POST', `/v1/properties/${id}/activate`)).statusCode).toBe(200);
  const sold = await ctx.send('POST', `/v1/properties/${id}/mark-sold`, { price_eur: 415_000, date: '2026-03-31' });
  expect(sold.statusCode, sold.body).toBe(200);
  await db.property.update({
    where: { id },
    data: { energy_exemption: 'heritage_protection', commission_tenant_months: 2, transaction_price_assumed: true },
  });
  return id;
}

describe('propertyRepository.find reads what Prisma reads', () => {
  let id: string;
  let expected: PropertyRow;
  beforeAll(async () => {
    id = await fullProperty();
    expected = (await prismaRow(ctx.tenant.accountId, id))!;
  });

  it('has a fixture with every column set', () => {
    expect(Object.entries(expected).filter(([, value]) => value === null)).toEqual([]);
    expect(expected.energy_efficiency_class).toBe('A_PLUS');
  });

  it('reads the row on the client (the pg pool) as Prisma does', async () => {
    expect(propertyRepository.direct).toBeDefined();
    const row = await propertyRepository.find(db, ctx.tenant.accountId, id);
    expect(row).toStrictEqual(expected);
  });

  it('reads the row in a transaction ($queryRawUnsafe) as Prisma does', async () => {
    const row = await inTransaction(db, (tx) => propertyRepository.find(tx, ctx.tenant.accountId, id));
    expect(row).toStrictEqual(expected);
  });

  it('reads DATE columns as midnight UTC of their day, whatever the time zone', async () => {
    for (const row of [
      await propertyRepository.find(db, ctx.tenant.accountId, id),
      await inTransaction(db, (tx) => propertyRepository.find(tx, ctx.tenant.accountId, id)),
    ]) {
      expect(row.available_from).toEqual(new Date('2027-01-01T00:00:00Z'));
      expect(row.energy_valid_until).toEqual(new Date('2030-05-31T00:00:00Z'));
      expect(row.transaction_date).toEqual(new Date('2026-03-31T00:00:00Z'));
      expect(row.transaction_price_eur).toBe(415_000);
      expect(row.energy_efficiency_class).toBe('A_PLUS');
    }
  });

  it("does not find another account's property, on the client or in a transaction", async () => {
    const theirs = await create({}, ctx.other.key);
    await expect(propertyRepository.find(db, ctx.tenant.accountId, theirs)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      inTransaction(db, (tx) => propertyRepository.find(tx, ctx.tenant.accountId, theirs)),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(propertyRepository.find(db, ctx.other.accountId, theirs)).resolves.toMatchObject({ id: theirs });
  });

  it('answers an unknown id with the 404 ApiError', async () => {
    const error = await propertyRepository
      .find(db, ctx.tenant.accountId, 'prop_00000000000000000000000000')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'not_found', message: 'No property with this id.' });
  });
});

describe('propertyRepository.page lists what Prisma lists', () => {
  const cursors = new CursorCodec('direct-reads-test');
  let accountId: string;
  let key: string;
  const ids: string[] = [];

  beforeAll(async () => {
    // A third account of its own, so that other tests' properties do not shift the pages.
    ({ accountId, key } = await createTenant(ctx.db.prisma, { service: propertyDescriptor }));
    for (let i = 0; i < 9; i++) ids.push(await create({ title: `Property ${i}` }, key));
    for (const id of ids.slice(0, 5))
      expect((await ctx.send('POST', `/v1/properties/${id}/activate`, undefined, key)).statusCode).toBe(200);
    // Equal created_at in pairs (one pair within the active ones, one across statuses): the id breaks the tie.
    const at = (second: number) => new Date(Date.UTC(2026, 0, 10, 12, 0, second, 123));
    const times = [at(1), at(2), at(2), at(3), at(4), at(4), at(5), at(6), at(6)];
    for (const [i, id] of ids.entries()) await db.property.update({ where: { id }, data: { created_at: times[i] } });
    await create({ title: 'Not theirs' }, ctx.tenant.key); // another account's row between them in time
  });

  /** Walks the list page by page with the repository and with Prisma, comparing each page. */
  const walk = (filters: Record<string, unknown>, limit: number, runner: Db | 'transaction' = db) =>
    walkPagesLikePrisma(
      (cursor) => {
        const request = { cursors, cursor, limit, filters, map: (row: PropertyRow) => row };
        return runner === 'transaction'
          ? inTransaction(db, (tx) => propertyRepository.page(tx, accountId, request))
          : propertyRepository.page(runner, accountId, request);
      },
      (after, take) =>
        db.property.findMany({ where: { account_id: accountId, ...filters, ...after }, orderBy: NEWEST_FIRST, take }),
      limit,
    );
  const newestFirst = newestFirstIds;

  it('pages every property of the account, newest first with the id breaking ties', async () => {
    const seen = await walk({ status: undefined, type: undefined }, 2);
    const all = await db.property.findMany({ where: { account_id: accountId } });
    expect(seen).toEqual(newestFirst(all));
    expect(seen).toHaveLength(9);
    // The pairs with equal created_at come out in descending id order.
    for (const [a, b] of [
      [1, 2],
      [4, 5],
      [7, 8],
    ]) {
      const [higher, lower] = ids[a] > ids[b] ? [ids[a], ids[b]] : [ids[b], ids[a]];
      expect(seen.indexOf(higher)).toBe(seen.indexOf(lower) - 1);
    }
  });

  it('pages with a status filter', async () => {
    expect(await walk({ status: 'active', type: undefined }, 2)).toEqual(
      newestFirst(await db.property.findMany({ where: { account_id: accountId, status: 'active' } })),
    );
    expect(await walk({ status: 'draft', type: 'apartment' }, 3)).toHaveLength(4);
  });

  it('pages the same in a transaction', async () => {
    expect(await walk({ status: undefined, type: undefined }, 4, 'transaction')).toHaveLength(9);
    expect(await walk({ status: 'active', type: undefined }, 2, 'transaction')).toHaveLength(5);
  });

  it('splits a pair of equal created_at across two pages', async () => {
    // limit 1 ends the first page inside the newest pair (6 s, 6 s): the cursor must carry the id.
    const first = await propertyRepository.page(db, accountId, {
      cursors,
      limit: 1,
      filters: {},
      map: (row: PropertyRow) => row.id,
    });
    const second = await propertyRepository.page(db, accountId, {
      cursors,
      cursor: first.page.next_cursor!,
      limit: 1,
      filters: {},
      map: (row: PropertyRow) => row.id,
    });
    expect([...first.data, ...second.data].sort()).toEqual([ids[7], ids[8]].sort());
    expect(first.data[0] > second.data[0]).toBe(true);
  });
});

describe('in a database session whose TimeZone is not UTC', () => {
  // A server initialised on a host outside UTC (initdb writes the host's zone into postgresql.conf),
  // simulated with ALTER DATABASE … SET timezone before the client's pool opens a connection.
  let zoned: Awaited<ReturnType<typeof createTestDatabase>>;
  let accountId: string;
  let id: string;
  beforeAll(async () => {
    zoned = await createTestDatabase();
    const [{ name }] = await zoned.query<{ name: string }>('SELECT current_database() AS name');
    await zoned.query(`ALTER DATABASE "${name}" SET timezone TO 'Pacific/Auckland'`);
    ({ accountId } = await createTenant(zoned.prisma, { service: propertyDescriptor }));
    id = 'prop_0000000000000000000000zone';
    await zoned.prisma.property.create({
      data: {
        id,
        account_id: accountId,
        type: 'apartment',
        title: 'Zoned',
        address_postal_code: '10115',
        address_city: 'Berlin',
      },
    });
  });
  afterAll(() => zoned?.drop());

  it('reads created_at as the instant the database holds', async () => {
    const [{ epoch }] = await zoned.query<{ epoch: string }>(
      'SELECT extract(epoch FROM created_at)::text AS epoch FROM properties WHERE id = $1',
      [id],
    );
    const row = await propertyRepository.find(zoned.prisma, accountId, id);
    expect(row.created_at.getTime()).toBe(Math.round(Number(epoch) * 1000));
  });

  // @prisma/adapter-pg reads and writes TIMESTAMPTZ as if the session were UTC; createPrisma pins the
  // session's TimeZone to UTC, so Prisma and readRows agree on a server whose default zone is another.
  it('agrees with Prisma on every column', async () => {
    const expected = await zoned.prisma.property.findFirst({ where: { id, account_id: accountId } });
    expect(await propertyRepository.find(zoned.prisma, accountId, id)).toStrictEqual(expected);
  });
});
