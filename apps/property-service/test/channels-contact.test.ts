import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

let n = 0;
const contact = {
  name: 'Vermietungsteam Mitte',
  company: 'Berger Immobilien GmbH',
  email: 'vermietung@berger-immobilien.de',
  phone: '+49 30 1234567',
};
const create = (body: Record<string, unknown>) =>
  ctx.send('POST', '/v1/channels', { type: 'openimmo', name: `Portal ${++n}`, ...body });
const patch = (id: string, body: unknown) => ctx.send('PATCH', `/v1/channels/${id}`, body);
/** Which problems were found (each detail's constraint and message are tested in packages/http). */
const details = (res: { json(): unknown }) =>
  (res.json() as { details: { field: string; reason: string }[] }).details.map(({ field, reason }) => ({
    field,
    reason,
  }));

describe("a channel's agency contact", () => {
  it('is stored on create and shown by get and list; a channel without one shows null', async () => {
    const res = await create({ contact });
    expect(res.statusCode).toBe(201);
    expect(res.json().contact).toEqual(contact);
    const id = res.json().id as string;
    expect((await ctx.send('GET', `/v1/channels/${id}`)).json().contact).toEqual(contact);
    const listed = (await ctx.send('GET', '/v1/channels?limit=100')).json().data as { id: string; contact: unknown }[];
    expect(listed.find((c) => c.id === id)?.contact).toEqual(contact);

    const bare = await create({});
    expect(bare.statusCode).toBe(201);
    expect(bare.json().contact).toBeNull();
  });

  it('needs a name and an e-mail or a phone; optional members are null when absent', async () => {
    const byPhone = await create({ contact: { name: 'Anna Berger', phone: '030 / 123 45-67' } });
    expect(byPhone.statusCode).toBe(201);
    expect(byPhone.json().contact).toEqual({
      name: 'Anna Berger',
      company: null,
      email: null,
      phone: '030 / 123 45-67',
    });
    const byEmail = await create({ contact: { name: 'Anna Berger', email: 'anna@berger-immobilien.de' } });
    expect(byEmail.json().contact).toEqual({
      name: 'Anna Berger',
      company: null,
      email: 'anna@berger-immobilien.de',
      phone: null,
    });
  });

  it('refuses an invalid contact with one detail per problem (422)', async () => {
    const cases: [unknown, { field: string; reason: string }[]][] = [
      [
        { name: 'Anna Berger' },
        [
          { field: 'contact.email', reason: 'missing' },
          { field: 'contact.phone', reason: 'missing' },
        ],
      ],
      [{ email: 'a@b.de' }, [{ field: 'contact.name', reason: 'missing' }]],
      [
        { name: '', email: 'a@b.de' },
        [
          { field: 'contact.name', reason: 'out_of_range' },
          { field: 'contact.name', reason: 'invalid_format' },
        ],
      ],
      [{ name: '   ', email: 'a@b.de' }, [{ field: 'contact.name', reason: 'invalid_format' }]],
      [{ name: 'x'.repeat(201), email: 'a@b.de' }, [{ field: 'contact.name', reason: 'too_long' }]],
      [{ name: 'A', company: 'c'.repeat(201), email: 'a@b.de' }, [{ field: 'contact.company', reason: 'too_long' }]],
      [{ name: 'A', email: 'not an address' }, [{ field: 'contact.email', reason: 'invalid_format' }]],
      [{ name: 'A', email: `${'a'.repeat(190)}@example.de` }, [{ field: 'contact.email', reason: 'too_long' }]],
      [{ name: 'A', phone: 'call me maybe' }, [{ field: 'contact.phone', reason: 'invalid_format' }]],
      [{ name: 'A', phone: '+()' }, [{ field: 'contact.phone', reason: 'invalid_format' }]],
      [{ name: 'A', phone: '1'.repeat(41) }, [{ field: 'contact.phone', reason: 'too_long' }]],
      [
        { name: 'A', email: 'a@b.de', interessent_id: 'int_1' },
        [{ field: 'contact.interessent_id', reason: 'unknown_field' }],
      ],
      ['Anna', [{ field: 'contact', reason: 'invalid_type' }]],
    ];
    for (const [value, expected] of cases) {
      const res = await create({ contact: value });
      expect(res.statusCode, JSON.stringify(value)).toBe(422);
      expect(res.json().code).toBe('validation_failed');
      expect(details(res), JSON.stringify(value)).toEqual(expect.arrayContaining(expected));
      expect(details(res).length, JSON.stringify(value)).toBe(expected.length);
    }
  });

  it('is patched as a JSON merge patch: members merge, null clears one, contact: null removes it', async () => {
    const id = (await create({})).json().id as string;
    // No contact yet: the patch must be a whole contact.
    const partial = await patch(id, { contact: { email: 'a@b.de' } });
    expect(partial.statusCode).toBe(422);
    expect(details(partial)).toEqual([{ field: 'contact.name', reason: 'missing' }]);

    const set = await patch(id, { contact });
    expect(set.statusCode).toBe(200);
    expect(set.json().contact).toEqual(contact);
    const merged = await patch(id, { contact: { phone: null, company: 'Berger & Söhne' } });
    expect(merged.json().contact).toEqual({ ...contact, phone: null, company: 'Berger & Söhne' });
    // The last way to reach the agency cannot be cleared.
    const unreachable = await patch(id, { contact: { email: null } });
    expect(unreachable.statusCode).toBe(422);
    expect(details(unreachable)).toEqual(
      expect.arrayContaining([
        { field: 'contact.email', reason: 'missing' },
        { field: 'contact.phone', reason: 'missing' },
      ]),
    );
    expect((await ctx.send('GET', `/v1/channels/${id}`)).json().contact).toEqual({
      ...contact,
      phone: null,
      company: 'Berger & Söhne',
    });
    // A rename leaves the contact as it is.
    const renamed = await patch(id, { name: `Renamed ${id}` });
    expect(renamed.json()).toMatchObject({
      name: `Renamed ${id}`,
      contact: { ...contact, phone: null, company: 'Berger & Söhne' },
    });

    const removed = await patch(id, { contact: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().contact).toBeNull();
    expect((await ctx.send('GET', `/v1/channels/${id}`)).json().contact).toBeNull();
    const row = await ctx.db.prisma.channel.findUniqueOrThrow({ where: { id } });
    expect([row.contact_name, row.contact_company, row.contact_email, row.contact_phone]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('changes updated_at only when something changed, and still refuses a name taken and the type', async () => {
    const first = (await create({ contact })).json();
    const other = (await create({})).json();
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 1000);
    const same = await patch(first.id, { contact: { name: contact.name } });
    expect(same.json().updated_at).toBe(first.updated_at);
    expect((await patch(first.id, { name: other.name })).statusCode).toBe(409);
    const typed = await patch(first.id, { type: 'website' });
    expect(typed.statusCode).toBe(422);
    expect(details(typed)).toEqual([{ field: 'type', reason: 'unknown_field' }]);
  });
});
