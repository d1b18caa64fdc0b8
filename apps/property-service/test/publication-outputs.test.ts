// What a listing hands to the outside world, read as the outside world reads it: the feeds over
// HTTP without a key, the OpenImmo documents validated with xmllint against the official XSD, the
// exposé's text with pdftotext. Addresses at their precision, no document, every link answering.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg, pdf } from '@platform/uploads/testing';
import {
  completedListing,
  createChannel,
  feedPathOf,
  propertyWithPhotos,
  startPropertyApp,
  type PropertyTestContext,
} from './helpers.js';
import { uploadMedia } from './media-helpers.js';
import { openImmoSchemaErrors } from './openimmo-schema.js';

let ctx: PropertyTestContext;
const work = mkdtempSync(join(tmpdir(), 'publication-outputs-'));
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(async () => {
  await ctx.close();
  rmSync(work, { recursive: true, force: true });
});

/** A public call: no key at all. */
const get = (url: string) => ctx.app.inject({ method: 'GET', url: url.startsWith('/') ? url : feedPathOf(url) });
const publish = (listingId: string, channels: string[]) =>
  ctx.send('POST', `/v1/listings/${listingId}/publish`, { channels });
const pdftotext = (data: Buffer) => {
  const file = join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, data);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
};
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (name) => name === 'immobilie' || name === 'anhang',
});
type Immobilie = {
  geo: Record<string, unknown>;
  anhaenge?: { anhang: { '@_gruppe': string; daten: { pfad: string } }[] };
  verwaltung_objekt: { objektadresse_freigeben: string };
};
const immobilien = (body: string): Immobilie[] =>
  (xml.parse(body) as { openimmo: { anbieter: { immobilie?: Immobilie[] } } }).openimmo.anbieter.immobilie ?? [];

const DOCUMENT_TITLE = 'Kaufvertrag Entwurf (Mustermann)';

/** A property with two photos, a floor plan and a private document; resolves to its completed listing. */
async function listingAt(street: string, location_precision: string, extra: Record<string, unknown> = {}) {
  const propertyId = await propertyWithPhotos(
    ctx,
    { address: { street, postal_code: '10115', city: 'Berlin', country: 'DE', location_precision }, ...extra },
    ctx.tenant.key,
    2,
  );
  const plan = await uploadMedia(ctx, propertyId, [
    { name: 'kind', value: 'floor_plan' },
    { name: 'title', value: 'Grundriss EG' },
    { name: 'file', filename: 'plan.jpg', type: 'image/jpeg', data: jpeg(60, 40) },
  ]);
  expect(plan.statusCode).toBe(201);
  const document = await uploadMedia(ctx, propertyId, [
    { name: 'kind', value: 'document' },
    { name: 'title', value: DOCUMENT_TITLE },
    { name: 'file', filename: 'vertrag.pdf', type: 'application/pdf', data: pdf('Mustermann') },
  ]);
  expect(document.statusCode).toBe(201);
  return completedListing(ctx, propertyId);
}

// [as entered, what `street` precision shows, the house number that must stay private]
const FORMS: [string, string, string][] = [
  ['12 Baker Street', 'Baker Street', '12'],
  ['Hauptstraße 5, Hinterhaus', 'Hauptstraße', '5'],
  ['Hauptstr. 5 (2. OG links)', 'Hauptstr.', '5'],
  ['Rheinufer 12a', 'Rheinufer', '12a'],
  ['Am Markt 3-5', 'Am Markt', '3-5'],
  ['Straße des 17. Juni 100', 'Straße des 17. Juni', '100'],
];

describe('every output at the address precision, with no document', () => {
  let website: Awaited<ReturnType<typeof createChannel>>;
  let openimmo: Awaited<ReturnType<typeof createChannel>>;
  const listings = new Map<string, { id: string }>();
  const hoods = new Map<string, { id: string }>();

  beforeAll(async () => {
    website = await createChannel(ctx, 'website');
    openimmo = await createChannel(ctx, 'openimmo');
    for (const [entered] of FORMS) {
      const listing = await listingAt(entered, 'street');
      const hood = await listingAt(entered, 'neighborhood');
      for (const l of [listing, hood]) expect((await publish(l.id, [website.id, openimmo.id])).statusCode).toBe(200);
      listings.set(entered, listing);
      hoods.set(entered, hood);
    }
  }, 240_000);

  for (const [entered, name, number] of FORMS) {
    it(`"${entered}" at street precision: "${name}" everywhere, its number nowhere`, async () => {
      const { id } = listings.get(entered)!;
      const numbered = [entered, `${name} ${number}`, `${number} ${name}`, 'Hinterhaus', '2. OG'];

      const json = (await get(`${feedPathOf(website.feed_url)}/${id}`)).json() as {
        address: Record<string, unknown>;
        expose_url: string;
      };
      expect(json.address).toMatchObject({ street: name, house_number: null, precision: 'street' });
      for (const text of numbered) expect(JSON.stringify(json)).not.toContain(text);

      const item = await get(`${feedPathOf(openimmo.feed_url)}/${id}`);
      expect(openImmoSchemaErrors(item.body)).toEqual([]);
      const [immo] = immobilien(item.body);
      expect(immo.geo.strasse).toBe(name);
      expect(immo.geo.hausnummer).toBeUndefined();
      expect(immo.verwaltung_objekt.objektadresse_freigeben).toBe('false');
      for (const text of numbered) expect(item.body).not.toContain(text);

      const expose = await get(json.expose_url);
      expect(expose.statusCode).toBe(200);
      const text = pdftotext(expose.rawPayload);
      expect(text).toContain(`${name}, 10115 Berlin`);
      for (const t of numbered) expect(text).not.toContain(t);
    });

    it(`"${entered}" at neighborhood precision: no street in any output`, async () => {
      const { id } = hoods.get(entered)!;
      const json = (await get(`${feedPathOf(website.feed_url)}/${id}`)).json() as {
        address: Record<string, unknown>;
        expose_url: string;
      };
      expect(json.address).toMatchObject({ street: null, house_number: null, postal_code: '10115', city: 'Berlin' });
      const item = await get(`${feedPathOf(openimmo.feed_url)}/${id}`);
      expect(openImmoSchemaErrors(item.body)).toEqual([]);
      const text = pdftotext((await get(json.expose_url)).rawPayload);
      for (const body of [JSON.stringify(json), item.body, text]) expect(body).not.toContain(name);
    });
  }

  it('the whole OpenImmo feed is valid; no document is listed; every attachment and every website link answers 200', async () => {
    const feed = await get(openimmo.feed_url);
    expect(feed.statusCode).toBe(200);
    expect(openImmoSchemaErrors(feed.body)).toEqual([]);
    const all = immobilien(feed.body);
    expect(all).toHaveLength(FORMS.length * 2);
    const groups = all.flatMap((immo) => immo.anhaenge!.anhang.map((a) => a['@_gruppe']));
    expect(new Set(groups)).toEqual(new Set(['TITELBILD', 'BILD', 'GRUNDRISS']));
    const json = await get(website.feed_url);
    for (const body of [feed.body, json.body]) {
      expect(body).not.toContain('Kaufvertrag');
      expect(body).not.toContain('DOKUMENTE');
      expect(body).not.toContain('application/pdf');
    }
    const links = [
      ...all.flatMap((immo) => immo.anhaenge!.anhang.map((a) => a.daten.pfad)),
      ...(
        json.json() as { listings: { media: { url: string; thumbnail_url: string | null }[]; expose_url: string }[] }
      ).listings.flatMap((l) => [
        ...l.media.flatMap((m) => [m.url, ...(m.thumbnail_url ? [m.thumbnail_url] : [])]),
        l.expose_url,
      ]),
    ];
    expect(links.length).toBeGreaterThan(FORMS.length * 2 * 4);
    for (const link of new Set(links)) expect((await get(link)).statusCode, link).toBe(200);
  });

  it('the exposé shows the photos and the floor plan, never the document', async () => {
    const { id } = listings.get(FORMS[0][0])!;
    const listing = (await ctx.send('GET', `/v1/listings/${id}`)).json() as { media: { kind: string }[] };
    expect(listing.media.map((m) => m.kind).sort()).toEqual(['floor_plan', 'photo', 'photo']);
    const text = pdftotext((await get(`${feedPathOf(website.feed_url)}/${id}/pdf`)).rawPayload);
    expect(text).toContain('Grundrisse');
    expect(text).not.toContain('Kaufvertrag');
  });
});

describe('exact precision and the country', () => {
  it('exact: street and house number apart (no addition), objektadresse_freigeben true, the exposé line with the number', async () => {
    const website = await createChannel(ctx, 'website');
    const openimmo = await createChannel(ctx, 'openimmo');
    const listing = await listingAt('Hauptstraße 5, Hinterhaus', 'exact');
    expect((await publish(listing.id, [website.id, openimmo.id])).statusCode).toBe(200);
    const json = (await get(`${feedPathOf(website.feed_url)}/${listing.id}`)).json() as {
      address: Record<string, unknown>;
      expose_url: string;
    };
    expect(json.address).toMatchObject({ street: 'Hauptstraße', house_number: '5', precision: 'exact' });
    const item = await get(`${feedPathOf(openimmo.feed_url)}/${listing.id}`);
    expect(openImmoSchemaErrors(item.body)).toEqual([]);
    const [immo] = immobilien(item.body);
    expect(immo.geo).toMatchObject({ strasse: 'Hauptstraße', hausnummer: '5', land: { '@_iso_land': 'DEU' } });
    expect(immo.verwaltung_objekt.objektadresse_freigeben).toBe('true');
    expect(pdftotext((await get(json.expose_url)).rawPayload)).toContain('Hauptstraße 5, 10115 Berlin');
  });

  it('a house number given apart is stored and published as given; a new street alone is split again', async () => {
    const created = await ctx.send('POST', '/v1/properties', {
      type: 'house',
      title: 'Haus',
      address: {
        street: 'Am Markt',
        house_number: '3-5',
        postal_code: '10115',
        city: 'Berlin',
        location_precision: 'exact',
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().address).toMatchObject({ street: 'Am Markt', house_number: '3-5' });
    const patched = await ctx.send('PATCH', `/v1/properties/${created.json().id}`, {
      address: { street: 'Rheinufer 12a' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().address).toMatchObject({ street: 'Rheinufer 12a', house_number: '12a' });
    const bad = await ctx.send('POST', '/v1/properties', {
      type: 'house',
      title: 'Haus',
      address: { street: 'Am Markt', house_number: '<b>', postal_code: '10115', city: 'Berlin' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details).toEqual([expect.objectContaining({ field: 'address.house_number' })]);
  });

  it("the account's default country applies when the address names none; OpenImmo then says DEU, not USA", async () => {
    const body = {
      type: 'apartment',
      title: 'Wohnung',
      address: { street: 'Lindenweg 3', postal_code: '10115', city: 'Berlin' },
    };
    expect((await ctx.send('POST', '/v1/properties', body)).json().address.country).toBe('US');
    await ctx.db.prisma.account.update({ where: { id: ctx.tenant.accountId }, data: { default_country: 'DE' } });
    try {
      const created = (await ctx.send('POST', '/v1/properties', body)).json();
      expect(created.address.country).toBe('DE');
      expect(
        (await ctx.send('POST', '/v1/properties', { ...body, address: { ...body.address, country: 'AT' } })).json()
          .address.country,
      ).toBe('AT');
      // Clearing the country in a PATCH falls back to the account's default too.
      const other = (
        await ctx.send('POST', '/v1/properties', { ...body, address: { ...body.address, country: 'FR' } })
      ).json();
      expect(
        (await ctx.send('PATCH', `/v1/properties/${other.id}`, { address: { country: null } })).json().address.country,
      ).toBe('DE');
      // Another account keeps the API's default.
      expect((await ctx.send('POST', '/v1/properties', body, ctx.other.key)).json().address.country).toBe('US');

      const openimmo = await createChannel(ctx, 'openimmo');
      const listing = await completedListing(
        ctx,
        await propertyWithPhotos(ctx, { address: { street: 'Lindenweg 3', postal_code: '10115', city: 'Berlin' } }),
      );
      expect((await publish(listing.id, [openimmo.id])).statusCode).toBe(200);
      const [immo] = immobilien((await get(`${feedPathOf(openimmo.feed_url)}/${listing.id}`)).body);
      expect(immo.geo.land).toEqual({ '@_iso_land': 'DEU' });
    } finally {
      await ctx.db.prisma.account.update({ where: { id: ctx.tenant.accountId }, data: { default_country: 'US' } });
    }
  });
});

describe('the agency contact of an OpenImmo channel', () => {
  it('publishing to an openimmo channel without one is a 422 that names the missing setting; with one, the feed carries it', async () => {
    const bare = await ctx.send('POST', '/v1/channels', { type: 'openimmo', name: 'Portal ohne Kontakt' });
    expect(bare.statusCode).toBe(201);
    const website = await createChannel(ctx, 'website');
    const listing = await completedListing(ctx, await propertyWithPhotos(ctx));
    const refused = await publish(listing.id, [website.id, bare.json().id]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'channels.1.contact', reason: 'missing' }],
    });
    expect(refused.json().message).toContain('Portal ohne Kontakt');
    // Nothing went live anywhere: the request is refused as a whole.
    expect((await ctx.send('GET', `/v1/listings/${listing.id}`)).json().channels).toEqual([]);

    const contact = { name: 'Vertrieb', email: 'vertrieb@agentur.example' };
    expect((await ctx.send('PATCH', `/v1/channels/${bare.json().id}`, { contact })).statusCode).toBe(200);
    expect((await publish(listing.id, [website.id, bare.json().id])).statusCode).toBe(200);
    const feed = await get(bare.json().feed_url);
    expect(openImmoSchemaErrors(feed.body)).toEqual([]);
    expect(feed.body).toContain('<email_zentrale>vertrieb@agentur.example</email_zentrale>');
    expect(feed.body).toContain('<name>Vertrieb</name>');

    // Removing the contact while listings are live would empty the document (and a portal's full import would delist them): 409.
    const removal = await ctx.send('PATCH', `/v1/channels/${bare.json().id}`, { contact: null });
    expect(removal.statusCode).toBe(409);
    expect(removal.json().code).toBe('conflict');
    expect(
      (await ctx.send('PATCH', `/v1/channels/${bare.json().id}`, { contact: { email: null, phone: '+49 30 5' } }))
        .statusCode,
    ).toBe(200);
    expect((await ctx.send('POST', `/v1/listings/${listing.id}/withdraw`)).statusCode).toBe(200);
    expect((await ctx.send('PATCH', `/v1/channels/${bare.json().id}`, { contact: null })).statusCode).toBe(200);
  });
});

describe('commission terms at publication (an advert states the commission)', () => {
  it("the spec's example (equal shares, no engaged_by) publishes; terms that depend on who engaged the broker are asked about here, then publish once given", async () => {
    const website = await createChannel(ctx, 'website');
    const equal = await completedListing(
      ctx,
      await propertyWithPhotos(ctx, { commission: { buyer_percent: 3.57, seller_percent: 3.57 } }),
    );
    expect((await publish(equal.id, [website.id])).statusCode).toBe(200);

    const propertyId = await propertyWithPhotos(ctx, { commission: { buyer_percent: 2.38, seller_percent: 3.57 } });
    const undecided = await completedListing(ctx, propertyId);
    const refused = await publish(undecided.id, [website.id]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'commission.engaged_by', reason: 'missing' }],
    });
    expect(refused.json().message).toMatch(/§656/);
    expect((await ctx.send('GET', `/v1/listings/${undecided.id}`)).json().channels).toEqual([]);

    expect(
      (await ctx.send('PATCH', `/v1/properties/${propertyId}`, { commission: { engaged_by: 'seller' } })).statusCode,
    ).toBe(200);
    const decided = await completedListing(ctx, propertyId);
    expect((await publish(decided.id, [website.id])).statusCode).toBe(200);
  });

  it('terms unlawful whoever engaged the broker are still refused when set', async () => {
    const res = await ctx.send('POST', '/v1/properties', {
      type: 'apartment',
      title: 'Wohnung',
      address: { postal_code: '10115', city: 'Berlin' },
      purchase_price_eur: 300000,
      commission: { buyer_percent: 3, seller_percent: 2, engaged_by: 'both' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'commission.buyer_percent', reason: 'not_allowed' }]);
  });
});
