import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountName } from '@platform/accounts';
import { TEST_PUBLIC_BASE_URL } from '@platform/testkit';
import { FEED_CACHE_SECONDS } from '../src/publication/feeds.js';
import {
  completedListing,
  createChannel,
  feedPathOf,
  propertyWithPhotos,
  startPropertyApp,
  type PropertyTestContext,
} from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
/** A public call: no key at all. */
const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: url.startsWith(TEST_PUBLIC_BASE_URL) ? feedPathOf(url) : url, headers });
const publish = async (listingId: string, channelIds: string[], key = ctx.tenant.key) =>
  expect((await ctx.send('POST', `/v1/listings/${listingId}/publish`, { channels: channelIds }, key)).statusCode).toBe(
    200,
  );
/** Moves the app's clock past the feed cache's lifetime. */
const pastFeedCache = () => (ctx.clock.now = new Date(ctx.clock.now.getTime() + (FEED_CACHE_SECONDS + 1) * 1000));

const germany = (street: string, location_precision: string) => ({
  address: { street, postal_code: '10115', city: 'Berlin', country: 'DE', location_precision },
});
const personal = {
  description: 'Sonnig, ruhig gelegen.',
  commission: {
    buyer_percent: 3.57,
    seller_percent: 2,
    engaged_by: 'buyer',
    note: 'Schlüssel bei Frau Geheim, 0171 999999',
  },
};

type WebsiteListing = {
  id: string;
  address: Record<string, unknown>;
  media: { url: string; content_type: string }[];
  expose_url: string;
} & Record<string, unknown>;

describe('website feed', () => {
  it('shows only the live listings, the address at its precision and nothing personal, without a key', async () => {
    const channel = await createChannel(ctx, 'website');
    const street = await completedListing(
      ctx,
      await propertyWithPhotos(ctx, { ...germany('Parkstraße 5', 'street'), ...personal }),
    );
    const exact = await completedListing(ctx, await propertyWithPhotos(ctx, germany('Hauptstraße 12a', 'exact')));
    const hood = await completedListing(ctx, await propertyWithPhotos(ctx, germany('Geheimweg 7', 'neighborhood')));
    const unpublished = await completedListing(ctx, await propertyWithPhotos(ctx));
    const withdrawn = await completedListing(ctx, await propertyWithPhotos(ctx));
    await publish(street.id, [channel.id]);
    await publish(exact.id, [channel.id]);
    await publish(hood.id, [channel.id]);
    await publish(withdrawn.id, [channel.id]);
    expect((await ctx.send('POST', `/v1/listings/${withdrawn.id}/withdraw`)).statusCode).toBe(200);

    const res = await get(channel.feed_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const feed = res.json() as { generated_at: string; listings: WebsiteListing[] };
    expect(feed.listings.map((l) => l.id).sort()).toEqual([street.id, exact.id, hood.id].sort());
    expect(res.body).not.toContain(unpublished.id);
    expect(res.body).not.toContain(withdrawn.id);
    const byId = new Map(feed.listings.map((l) => [l.id, l]));
    expect(byId.get(street.id)!.address).toEqual({
      street: 'Parkstraße',
      house_number: null,
      postal_code: '10115',
      city: 'Berlin',
      country: 'DE',
      precision: 'street',
    });
    expect(byId.get(exact.id)!.address).toMatchObject({
      street: 'Hauptstraße',
      house_number: '12a',
      precision: 'exact',
    });
    expect(byId.get(hood.id)!.address).toMatchObject({ street: null, house_number: null, precision: 'neighborhood' });
    expect(byId.get(street.id)).toMatchObject({
      title: street.property.title,
      description: 'Sonnig, ruhig gelegen.',
      buyer_commission_percent: 3.57,
      purchase_price_eur: 420000,
    });
    expect(res.body).not.toMatch(/Geheim|0171|seller|Parkstraße 5|Geheimweg/);
    expect(res.body).not.toContain(ctx.tenant.accountId);
  });

  it('links media that download the photo bytes and an expose_url that downloads the PDF, both without a key', async () => {
    const channel = await createChannel(ctx, 'website');
    const listing = await completedListing(ctx, await propertyWithPhotos(ctx, {}, ctx.tenant.key, 2));
    await publish(listing.id, [channel.id]);
    const [item] = (await get(channel.feed_url)).json().listings as WebsiteListing[];
    expect(item.media.map((m) => m.url)).toEqual(
      listing.media.map((m: { sha256: string }) => `${channel.feed_url.replace(/\/listings$/, '')}/media/${m.sha256}`),
    );
    for (const [i, medium] of item.media.entries()) {
      const photo = await get(medium.url);
      expect(photo.statusCode).toBe(200);
      expect(photo.headers['content-type']).toBe('image/jpeg');
      expect(sha(photo.rawPayload)).toBe(listing.media[i].sha256);
      expect((await ctx.storage.get(listing.media[i].sha256))!.size).toBe(photo.rawPayload.length);
    }
    const pdf = await get(item.expose_url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(sha(pdf.rawPayload)).toBe(listing.pdf.sha256);
    expect((await get(item.expose_url, { 'if-none-match': pdf.headers.etag as string })).statusCode).toBe(304);
  });

  it('answers with an ETag and Cache-Control, and 304 to If-None-Match', async () => {
    const channel = await createChannel(ctx, 'website');
    await publish((await completedListing(ctx, await propertyWithPhotos(ctx))).id, [channel.id]);
    const first = await get(channel.feed_url);
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(first.headers['cache-control']).toBe(`public, max-age=${FEED_CACHE_SECONDS}`);
    const again = await get(channel.feed_url, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe(`public, max-age=${FEED_CACHE_SECONDS}`);
  });

  it('keeps a built feed for its cache lifetime, then shows the change (a withdrawn listing disappears)', async () => {
    const channel = await createChannel(ctx, 'website');
    const listing = await completedListing(ctx, await propertyWithPhotos(ctx));
    await publish(listing.id, [channel.id]);
    const before = await get(channel.feed_url);
    expect(before.body).toContain(listing.id);
    expect((await ctx.send('POST', `/v1/listings/${listing.id}/withdraw`)).statusCode).toBe(200);
    // The PDF and the media are checked on every request: gone at once.
    expect((await get(`${feedPathOf(channel.feed_url)}/${listing.id}/pdf`)).statusCode).toBe(404);
    expect(
      (await get(`${feedPathOf(channel.feed_url).replace(/\/listings$/, '')}/media/${listing.media[0].sha256}`))
        .statusCode,
    ).toBe(404);
    pastFeedCache();
    const after = await get(channel.feed_url, { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.json().listings).toEqual([]);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('answers an unknown token 404 and a malformed one in the error shape, without internals', async () => {
    const unknown = await get(`/public/v1/feeds/${'A'.repeat(32)}/listings`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not_found', message: expect.any(String) });
    for (const token of [
      'short',
      'has.dots.in.it.not.allowed.here',
      `${'x'.repeat(65)}`,
      '%27%20OR%201%3D1--aaaaaaaaaaaaaaaa',
    ]) {
      const res = await get(`/public/v1/feeds/${token}/listings`);
      expect(res.statusCode, token).toBe(404);
      const body = res.json();
      expect(
        Object.keys(body)
          .sort()
          .filter((k) => k !== 'details'),
      ).toEqual(['code', 'message']);
      expect(res.body).not.toMatch(/stack|at .*\.ts|node_modules/);
    }
    expect((await get(`/public/v1/feeds/${'A'.repeat(32)}/media/${'0'.repeat(64)}`)).statusCode).toBe(404);
    expect((await get(`/public/v1/feeds/${'A'.repeat(32)}/listings/lst_missing/pdf`)).statusCode).toBe(404);
  });

  it("never shows another account's listing, its PDF or its media", async () => {
    const mine = await createChannel(ctx, 'website');
    const theirs = await createChannel(ctx, 'website', undefined, ctx.other.key);
    const their = await completedListing(
      ctx,
      await propertyWithPhotos(ctx, { description: 'Their private description' }, ctx.other.key),
      ctx.other.key,
    );
    await publish(their.id, [theirs.id], ctx.other.key);
    const feed = await get(mine.feed_url);
    expect(feed.json().listings).toEqual([]);
    expect(feed.body).not.toContain('Their private description');
    const base = feedPathOf(mine.feed_url);
    expect((await get(`${base}/${their.id}`)).statusCode).toBe(404);
    expect((await get(`${base}/${their.id}/pdf`)).statusCode).toBe(404);
    expect((await get(`${base.replace(/\/listings$/, '')}/media/${their.media[0].sha256}`)).statusCode).toBe(404);
    // Their own feed has it.
    expect((await get(theirs.feed_url)).json().listings.map((l: { id: string }) => l.id)).toEqual([their.id]);
  });
});

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (name) => name === 'immobilie' || name === 'anhang',
});

describe('OpenImmo feed', () => {
  it('holds every live listing with the fields of its snapshot; the per-listing document is the same listing alone', async () => {
    const channel = await createChannel(ctx, 'openimmo');
    const listing = await completedListing(
      ctx,
      await propertyWithPhotos(
        ctx,
        { ...germany('Hauptstraße 12a', 'exact'), ...personal, floor: 2, title: 'Helle Wohnung in Köln-Süd' },
        ctx.tenant.key,
        2,
      ),
    );
    await publish(listing.id, [channel.id]);
    const res = await get(channel.feed_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe(`public, max-age=${FEED_CACHE_SECONDS}`);
    const doc = parser.parse(res.body).openimmo;
    const [immobilie] = doc.anbieter.immobilie;
    expect(doc.anbieter.immobilie).toHaveLength(1);
    // The agency is the account's name (asked of @platform/accounts when the feed is built).
    const agency = await accountName(ctx.db.prisma, ctx.tenant.accountId);
    expect(agency).toBeTruthy();
    expect(doc.anbieter.firma).toBe(agency);
    const p = listing.property;
    expect(immobilie.geo).toMatchObject({
      plz: p.address.postal_code,
      ort: p.address.city,
      strasse: 'Hauptstraße',
      hausnummer: '12a',
      etage: '2',
      land: { '@_iso_land': 'DEU' },
    });
    expect(immobilie.preise.kaufpreis).toBe(String(p.purchase_price_eur));
    expect(immobilie.preise.aussen_courtage['#text']).toBe('3,57 %');
    expect(immobilie.flaechen).toMatchObject({
      wohnflaeche: String(p.living_area_sqm),
      anzahl_zimmer: String(p.rooms),
    });
    expect(immobilie.freitexte).toEqual({ objekttitel: p.title, objektbeschreibung: p.description });
    expect(immobilie.zustand_angaben.baujahr).toBe(String(p.year_built));
    expect(immobilie.zustand_angaben.energiepass).toMatchObject({
      epart: 'BEDARF',
      gueltig_bis: p.energy_certificate.valid_until,
      endenergiebedarf: String(p.energy_certificate.final_energy_demand_kwh),
      primaerenergietraeger: p.energy_certificate.energy_source,
      wertklasse: p.energy_certificate.efficiency_class,
    });
    expect(immobilie.verwaltung_techn).toMatchObject({ objektnr_extern: listing.id, openimmo_obid: listing.id });
    const anhaenge = immobilie.anhaenge.anhang as { '@_gruppe': string; format: string; daten: { pfad: string } }[];
    expect(anhaenge.map((a) => a['@_gruppe'])).toEqual(['TITELBILD', 'BILD']);
    for (const [i, anhang] of anhaenge.entries()) {
      expect(anhang.format).toBe('image/jpeg');
      const photo = await get(anhang.daten.pfad);
      expect(photo.statusCode).toBe(200);
      expect(sha(photo.rawPayload)).toBe(listing.media[i].sha256);
    }
    expect(res.body).not.toMatch(/Geheim|0171/);

    const single = await get(`${feedPathOf(channel.feed_url)}/${listing.id}`);
    expect(single.statusCode).toBe(200);
    const alone = parser.parse(single.body).openimmo.anbieter.immobilie;
    expect(alone).toEqual([immobilie]);
    expect(parser.parse(single.body).openimmo.anbieter.firma).toBe(agency);
  });

  it('serves a medium deleted from the property after generation while the listing is live', async () => {
    const channel = await createChannel(ctx, 'openimmo');
    const propertyId = await propertyWithPhotos(ctx, germany('Parkstraße 5', 'street'), ctx.tenant.key, 2);
    const listing = await completedListing(ctx, propertyId);
    await publish(listing.id, [channel.id]);
    const deleted = listing.media[1];
    expect((await ctx.send('DELETE', `/v1/properties/${propertyId}/media/${deleted.id}`)).statusCode).toBe(204);
    expect(await ctx.storage.exists(deleted.sha256)).toBe(true);
    const pfade = (
      parser.parse((await get(channel.feed_url)).body).openimmo.anbieter.immobilie[0].anhaenge.anhang as {
        daten: { pfad: string };
      }[]
    ).map((a) => a.daten.pfad);
    const photo = await get(pfade[1]);
    expect(photo.statusCode).toBe(200);
    expect(sha(photo.rawPayload)).toBe(deleted.sha256);
    expect((await get(`${feedPathOf(channel.feed_url)}/${listing.id}/pdf`)).statusCode).toBe(200);
  });
});
