import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PUBLIC_BASE_URL, until } from '@platform/testkit';
import { jpeg, jpegStructure } from '@platform/uploads/testing';
import { startPropertyApp, validProperty, type PropertyTestContext } from './helpers.js';
import { photoParts, uploadMedia } from './media-helpers.js';

let ctx: PropertyTestContext;
let stopWorker: () => Promise<void>;
beforeAll(async () => {
  ctx = await startPropertyApp();
  stopWorker = await ctx.startJobWorker();
});
afterAll(async () => {
  await stopWorker();
  await ctx.close();
});

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const energy = {
  type: 'demand',
  final_energy_demand_kwh: 85.5,
  energy_source: 'Fernwärme',
  efficiency_class: 'C',
  valid_until: '2031-05-01',
};

/** A property with two photos, ready for an exposé; resolves to its id. */
async function propertyWithPhotos(overrides: Record<string, unknown> = {}, key = ctx.tenant.key): Promise<string> {
  const res = await ctx.send(
    'POST',
    '/v1/properties',
    {
      ...validProperty(),
      title: 'Helle Wohnung in Köln-Süd',
      year_built: 1998,
      energy_certificate: energy,
      ...overrides,
    },
    key,
  );
  expect(res.statusCode).toBe(201);
  const id = res.json().id as string;
  for (const salt of ['a', 'b'])
    expect(
      (await uploadMedia(ctx, id, photoParts(jpeg(40, 30, salt + id), [], 'image/jpeg', 'photo.jpg'), key)).statusCode,
    ).toBe(201);
  return id;
}

async function generated(propertyId: string, key = ctx.tenant.key) {
  const res = await ctx.send('POST', `/v1/properties/${propertyId}/listings`, undefined, key);
  expect(res.statusCode).toBe(202);
  const listing = res.json();
  expect(listing.status).toBe('generating');
  return until(async () => {
    const now = (await ctx.send('GET', `/v1/listings/${listing.id}`, undefined, key)).json();
    return now.status === 'completed' ? now : undefined;
  }, 20_000);
}

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'listing-'));
  try {
    writeFileSync(join(dir, 'x.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'x.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('listings: generation', () => {
  it('generates the exposé in the worker: completed, the PDF with umlauts, listing.completed with exactly the spec data', async () => {
    const propertyId = await propertyWithPhotos();
    const listing = await generated(propertyId);
    expect(listing).toMatchObject({
      property_id: propertyId,
      pdf_url: `${TEST_PUBLIC_BASE_URL}/v1/listings/${listing.id}/pdf`,
      failure_reason: null,
      channels: [],
    });
    expect(listing.media.map((m: { position: number }) => m.position)).toEqual([0, 1]);
    const pdf = await ctx.send('GET', `/v1/listings/${listing.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers.etag).toBe(`"${listing.pdf.sha256}"`);
    expect(sha(pdf.rawPayload)).toBe(listing.pdf.sha256);
    expect(pdfText(pdf.rawPayload)).toContain('Helle Wohnung in Köln-Süd');
    const events = await ctx.db.prisma.outboxEvent.findMany({ where: { type: 'listing.completed' } });
    const mine = events.map((e) => JSON.parse(e.payload)).filter((e) => e.data.listing_id === listing.id);
    expect(mine).toHaveLength(1);
    expect(mine[0].data).toEqual({
      listing_id: listing.id,
      property_id: propertyId,
      status: 'completed',
      pdf_url: listing.pdf_url,
    });
  });

  it('keeps the listing and its PDF bytes when the property changes afterwards; a new listing shows the new data', async () => {
    const propertyId = await propertyWithPhotos();
    const first = await generated(propertyId);
    const before = (await ctx.send('GET', `/v1/listings/${first.id}/pdf`)).rawPayload;
    expect(
      (await ctx.send('PATCH', `/v1/properties/${propertyId}`, { purchase_price_eur: 399000, title: 'Neuer Titel' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await uploadMedia(ctx, propertyId, photoParts(jpeg(40, 30, 'c' + propertyId), [], 'image/jpeg', 'photo.jpg')))
        .statusCode,
    ).toBe(201);
    const again = (await ctx.send('GET', `/v1/listings/${first.id}`)).json();
    expect(again.property).toEqual(first.property);
    expect(again.media).toEqual(first.media);
    expect(sha((await ctx.send('GET', `/v1/listings/${first.id}/pdf`)).rawPayload)).toBe(sha(before));
    const second = await generated(propertyId);
    expect(second.property).toMatchObject({ title: 'Neuer Titel', purchase_price_eur: 399000 });
    expect(second.media).toHaveLength(3);
    expect(second.pdf.sha256).not.toBe(first.pdf.sha256);
  });
});

/** A JPEG whose EXIF carries a marker where a camera puts GPS coordinates and serial numbers. */
function jpegWithExif(salt: string, marker: string): Buffer {
  const base = jpeg(40, 30, salt);
  const tiff = Buffer.concat([
    Buffer.from('MM\0*\0\0\0\x08\0\0', 'latin1'),
    Buffer.alloc(4),
    Buffer.from(marker, 'latin1'),
  ]);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const app1 = Buffer.concat([
    Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 255]),
    payload,
  ]);
  return Buffer.concat([base.subarray(0, 2), app1, base.subarray(2)]);
}

describe('listings: published photos', () => {
  it('publishes renditions of photos, without their metadata (PDF and feed); the property keeps the original', async () => {
    const marker = 'GPS-52.5200N-13.4050E-SERIAL-0042';
    const res = await ctx.send('POST', '/v1/properties', {
      ...validProperty(),
      year_built: 1998,
      energy_certificate: energy,
      address: { street: 'Geheimweg 7', postal_code: '10115', city: 'Berlin', location_precision: 'neighborhood' },
    });
    const propertyId = res.json().id as string;
    const original = jpegWithExif(propertyId, marker);
    const upload = await uploadMedia(ctx, propertyId, photoParts(original, [], 'image/jpeg', 'photo.jpg'));
    expect(upload.statusCode).toBe(201);
    const listing = await generated(propertyId);
    expect(listing.media[0].sha256).not.toBe(sha(original));
    const pdf = (await ctx.send('GET', `/v1/listings/${listing.id}/pdf`)).rawPayload;
    expect(pdf.includes(marker)).toBe(false);
    const channel = (await ctx.send('POST', '/v1/channels', { type: 'website', name: `Website ${propertyId}` })).json();
    expect((await ctx.send('POST', `/v1/listings/${listing.id}/publish`, { channels: [channel.id] })).statusCode).toBe(
      200,
    );
    const feed = JSON.parse(
      (await ctx.app.inject({ method: 'GET', url: channel.feed_url.replace(TEST_PUBLIC_BASE_URL, '') })).body,
    );
    const published = await ctx.app.inject({
      method: 'GET',
      url: feed.listings[0].media[0].url.replace(TEST_PUBLIC_BASE_URL, ''),
    });
    expect(published.statusCode).toBe(200);
    expect(published.rawPayload.includes(marker)).toBe(false);
    // a rendition made from the pixels: a new JPEG with no APPn but JFIF, no comment, nothing after its end
    expect(sha(published.rawPayload)).toBe(listing.media[0].sha256);
    expect(published.headers['content-type']).toBe('image/jpeg');
    const structure = jpegStructure(published.rawPayload);
    expect(structure.segments.filter((s) => (s.startsWith('APP') && s !== 'APP0') || s === 'COM')).toEqual([]);
    expect(structure.trailing).toBe(0);
    const kept = await ctx.send('GET', `/v1/properties/${propertyId}/media/${upload.json().id}/content`);
    expect(kept.rawPayload.equals(original)).toBe(true);
  });
});

describe('listings: snapshots of an older shape', () => {
  it('reads a snapshot taken before the commission gained fields, with their defaults (a snapshot is never rewritten)', async () => {
    const propertyId = await propertyWithPhotos({ commission: { seller_percent: 3 } });
    const listing = await generated(propertyId);
    await ctx.db.prisma.$executeRawUnsafe(
      `UPDATE listings SET snapshot = jsonb_set(snapshot, '{property,commission}', '{"buyer_percent": null, "seller_percent": 3, "note": null}') WHERE id = $1`,
      listing.id,
    );
    const res = await ctx.send('GET', `/v1/listings/${listing.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().property.commission).toEqual({
      buyer_percent: null,
      seller_percent: 3,
      note: null,
      engaged_by: null,
      buyer_is_consumer: true,
      tenant_months: null,
      landlord_months: null,
    });
  });
});
