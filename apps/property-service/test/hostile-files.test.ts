import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg, jpegStructure, pdf, png, webp } from '@platform/uploads/testing';
import * as hostile from '@platform/uploads/testing/hostile';
import {
  completedListing,
  createChannel,
  feedPathOf,
  startPropertyApp,
  validProperty,
  type PropertyTestContext,
} from './helpers.js';
import { uploadMedia } from './media-helpers.js';

// Every file here is one a tenant could upload. Each is refused with 422 at upload, or accepted
// with renditions that carry nothing but pixels; nothing of any of them reaches a feed, a portal
// export or an exposé but those renditions; the service answers throughout.

let ctx: PropertyTestContext;
const work = mkdtempSync(join(tmpdir(), 'hostile-'));
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(async () => {
  await ctx.close();
  rmSync(work, { recursive: true, force: true });
});

let files = 0;
/** A poppler tool's output for a PDF (pdfinfo with its XMP, pdftotext, pdfimages, pdfdetach). */
function poppler(tool: string, args: string[], data: Buffer): string {
  const file = join(work, `${++files}.pdf`);
  writeFileSync(file, data);
  return execFileSync(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])], { encoding: 'latin1' });
}

type Kind = 'photo' | 'floor_plan' | 'document';
interface Case {
  name: string;
  kind: Kind;
  type: string;
  file: () => Buffer | Promise<Buffer>;
  /** `accepted`, or the 422 detail's reason and a word of the message. */
  outcome: 'accepted' | { reason: 'invalid_format' | 'out_of_range' | 'not_allowed'; message: RegExp } | 'either';
}

const CASES: Case[] = [
  {
    name: "a PNG whose IDAT is not zlib data (the review's 85 bytes)",
    kind: 'photo',
    type: 'image/png',
    file: hostile.pngWithBrokenZlib,
    outcome: { reason: 'invalid_format', message: /cannot be decoded/ },
  },
  {
    name: 'an 8000 × 8000 all-zero PNG (250 KB, 64 megapixels)',
    kind: 'photo',
    type: 'image/png',
    file: () => hostile.zeroPng(8000, 8000),
    outcome: { reason: 'out_of_range', message: /8000 × 8000 pixels \(64 megapixels\); at most 40 megapixels/ },
  },
  {
    name: 'a PNG bomb header of 30000 × 30000',
    kind: 'photo',
    type: 'image/png',
    file: () => hostile.pngBombHeader(30_000, 30_000),
    outcome: { reason: 'out_of_range', message: /900 megapixels/ },
  },
  {
    name: 'a JPEG bomb header of 65000 × 65000',
    kind: 'photo',
    type: 'image/jpeg',
    file: () => hostile.jpegBombHeader(65_000, 65_000),
    outcome: { reason: 'out_of_range', message: /65000 × 65000/ },
  },
  {
    name: 'a truncated JPEG',
    kind: 'photo',
    type: 'image/jpeg',
    file: () => hostile.truncated(jpeg(640, 480, 'cut'), 0.5),
    outcome: { reason: 'invalid_format', message: /cannot be decoded/ },
  },
  {
    name: 'a truncated PNG',
    kind: 'photo',
    type: 'image/png',
    file: () => hostile.truncated(png(200, 200, 'cut'), 0.6),
    outcome: { reason: 'invalid_format', message: /cannot be/ },
  },
  {
    name: 'a truncated WebP',
    kind: 'photo',
    type: 'image/webp',
    file: () => hostile.truncated(hostile.manyFramesWebp(20), 0.5),
    outcome: { reason: 'invalid_format', message: /cannot be/ },
  },
  {
    name: 'a truncated PDF floor plan',
    kind: 'floor_plan',
    type: 'application/pdf',
    file: () => hostile.truncated(pdf('cut'), 0.4),
    outcome: { reason: 'invalid_format', message: /PDF/ },
  },
  {
    name: 'a JPEG with EXIF after the scan, its length past the end',
    kind: 'photo',
    type: 'image/jpeg',
    file: hostile.jpegWithExifAfterScan,
    outcome: 'either',
  },
  {
    name: 'a phone photo: EXIF GPS and serial, orientation 6, XMP, a comment, trailing bytes',
    kind: 'photo',
    type: 'image/jpeg',
    file: () => hostile.phonePhoto(64, 48),
    outcome: 'accepted',
  },
  {
    name: 'a CMYK JPEG with an ICC profile',
    kind: 'photo',
    type: 'image/jpeg',
    file: hostile.cmykJpeg,
    outcome: 'accepted',
  },
  {
    name: 'a 16-bit RGBA PNG with a text chunk',
    kind: 'photo',
    type: 'image/png',
    file: hostile.png16,
    outcome: 'accepted',
  },
  {
    name: 'a PNG with an HTML page in a chunk and after its end',
    kind: 'photo',
    type: 'image/png',
    file: hostile.pngWithHtml,
    outcome: 'accepted',
  },
  {
    name: 'a WebP of 1000 frames with EXIF',
    kind: 'photo',
    type: 'image/webp',
    file: () => hostile.manyFramesWebp(1000),
    outcome: 'accepted',
  },
  {
    name: 'a GIF',
    kind: 'photo',
    type: 'image/gif',
    file: hostile.gif,
    outcome: { reason: 'not_allowed', message: /allowed type/ },
  },
  {
    name: 'a PDF + ZIP polyglot as a floor plan',
    kind: 'floor_plan',
    type: 'application/pdf',
    file: hostile.pdfZipPolyglot,
    outcome: 'accepted',
  },
  {
    name: 'a PDF + ZIP polyglot as a document',
    kind: 'document',
    type: 'application/pdf',
    file: hostile.pdfZipPolyglot,
    outcome: 'accepted',
  },
  {
    name: 'a floor-plan PDF with document information, XMP, an attachment, JavaScript and a note',
    kind: 'floor_plan',
    type: 'application/pdf',
    file: () => hostile.floorPlanWithSecrets(),
    outcome: 'accepted',
  },
  {
    name: 'a floor-plan PDF of three pages',
    kind: 'floor_plan',
    type: 'application/pdf',
    file: () => hostile.floorPlanWithSecrets(3),
    outcome: { reason: 'out_of_range', message: /3 pages; a published PDF may have 1/ },
  },
  {
    name: 'an encrypted PDF',
    kind: 'document',
    type: 'application/pdf',
    file: hostile.encryptedPdf,
    outcome: { reason: 'invalid_format', message: /encrypted/ },
  },
  {
    name: 'a PDF without pages',
    kind: 'document',
    type: 'application/pdf',
    file: () => Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
    outcome: { reason: 'invalid_format', message: /PDF/ },
  },
];

interface Accepted {
  case: Case;
  media: {
    id: string;
    renditions: { variant: string; content_url: string; sha256: string; width: number; height: number }[];
  } & Record<string, unknown>;
}

/** Checks a published JPEG: only its structure's APP0 at most, no comment, nothing after its end, no marker. */
function assertClean(data: Buffer, label: string) {
  const structure = hostile.markersIn(data);
  expect(structure, `${label}: markers`).toEqual([]);
  const { segments, trailing } = jpegStructure(data);
  expect(
    segments.filter((s) => (s.startsWith('APP') && s !== 'APP0') || s === 'COM'),
    `${label}: segments ${segments}`,
  ).toEqual([]);
  expect(trailing, `${label}: bytes after EOI`).toBe(0);
}

describe('hostile files at upload', () => {
  const accepted: Accepted[] = [];
  let propertyId: string;

  beforeAll(async () => {
    const res = await ctx.send('POST', '/v1/properties', {
      ...validProperty(),
      year_built: 1998,
      energy_certificate: {
        type: 'demand',
        final_energy_demand_kwh: 85.5,
        energy_source: 'Gas',
        efficiency_class: 'C',
        valid_until: '2031-05-01',
      },
    });
    propertyId = res.json().id;
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const data = await c.file();
    const res = await uploadMedia(ctx, propertyId, [
      { name: 'kind', value: c.kind },
      { name: 'file', filename: 'file', type: c.type, data },
    ]);
    if (c.outcome === 'either' ? res.statusCode === 422 : c.outcome !== 'accepted') {
      expect(res.statusCode, res.body).toBe(422);
      const body = res.json();
      expect(body.code).toBe('validation_failed');
      if (typeof c.outcome === 'object') {
        expect(body.details).toEqual([expect.objectContaining({ field: 'file', reason: c.outcome.reason })]);
        expect(body.message).toMatch(c.outcome.message);
      }
      expect(body.message).not.toMatch(/\/tmp|sandbox-|node_modules|at .*\.js/); // no paths, no stack
      return;
    }
    expect(res.statusCode, res.body).toBe(201);
    const media = res.json();
    const photoLike = c.kind !== 'document';
    expect(media.renditions.map((r: { variant: string }) => r.variant)).toEqual(
      photoLike ? ['large', 'thumbnail'] : [],
    );
    for (const rendition of media.renditions) {
      const download = await ctx.send('GET', rendition.content_url);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('image/jpeg');
      assertClean(download.rawPayload, `${c.name} ${rendition.variant}`);
    }
    // the original stays as it was, for its owner only
    const original = await ctx.send('GET', media.content_url);
    expect(original.rawPayload.equals(data)).toBe(true);
    accepted.push({ case: c, media });
  });

  it('turns a photo by its EXIF orientation before its metadata goes: 64 × 48 with orientation 6 is 48 × 64', () => {
    const phone = accepted.find((a) => a.case.name.startsWith('a phone photo'))!;
    expect(phone.media).toMatchObject({ width: 48, height: 64 });
    expect(phone.media.renditions.map((r) => [r.width, r.height])).toEqual([
      [48, 64],
      [48, 64],
    ]);
  });

  it("publishes nothing but renditions: the feed's files, the OpenImmo attachments and the exposé carry no metadata of any upload", async () => {
    expect(accepted.filter((a) => a.case.kind !== 'document').length).toBeGreaterThanOrEqual(7);
    const listing = await completedListing(ctx, propertyId);
    const published = accepted.filter((a) => a.case.kind !== 'document');
    expect(listing.media.map((m: { id: string }) => m.id).sort()).toEqual(published.map((a) => a.media.id).sort());
    const website = await createChannel(ctx, 'website');
    const portal = await createChannel(ctx, 'openimmo');
    expect(
      (await ctx.send('POST', `/v1/listings/${listing.id}/publish`, { channels: [website.id, portal.id] })).statusCode,
    ).toBe(200);

    const feed = JSON.parse((await ctx.app.inject({ method: 'GET', url: feedPathOf(website.feed_url) })).body);
    const urls: string[] = feed.listings[0].media.flatMap((m: { url: string; thumbnail_url: string }) => [
      m.url,
      m.thumbnail_url,
    ]);
    const xml = (await ctx.app.inject({ method: 'GET', url: feedPathOf(portal.feed_url) })).body;
    expect(hostile.markersIn(Buffer.from(xml))).toEqual([]);
    const attachments = [...xml.matchAll(/<pfad>([^<]+)<\/pfad>/g)].map((m) => m[1]);
    expect(attachments.length).toBe(published.length);
    for (const url of [...urls, ...attachments]) {
      const file = await ctx.app.inject({ method: 'GET', url: feedPathOf(url) });
      expect(file.statusCode).toBe(200);
      assertClean(file.rawPayload, url);
    }

    const expose = (await ctx.send('GET', `/v1/listings/${listing.id}/pdf`)).rawPayload;
    expect(hostile.markersIn(expose)).toEqual([]);
    expect(
      hostile.markersIn(Buffer.from(poppler('pdfinfo', [], expose) + poppler('pdfinfo', ['-meta'], expose))),
    ).toEqual([]);
    expect(hostile.markersIn(Buffer.from(poppler('pdftotext', [], expose)))).toEqual([]);
    expect(poppler('pdfdetach', ['-list'], expose)).toMatch(/^0 embedded files/);
    // every photo and floor plan is in it, as its rendition (JPEG, DCT)
    const images = poppler('pdfimages', ['-list'], expose)
      .split('\n')
      .slice(2)
      .filter((line) => line.trim());
    expect(images).toHaveLength(published.length);
    expect(images.every((line) => line.includes(' jpeg '))).toBe(true);
  });

  it("the floor plan's secrets were in the upload (so the checks above can fail)", async () => {
    const original = await hostile.floorPlanWithSecrets();
    const info = poppler('pdfinfo', [], original) + poppler('pdfinfo', ['-meta'], original);
    for (const marker of [hostile.MARKERS.owner, hostile.MARKERS.address, hostile.MARKERS.serial, hostile.MARKERS.xmp])
      expect(info).toContain(marker);
    expect(poppler('pdfdetach', ['-list'], original)).toMatch(/1 embedded files/);
    expect(hostile.markersIn(await hostile.phonePhoto())).toEqual(
      expect.arrayContaining([
        hostile.MARKERS.gps,
        hostile.MARKERS.serial,
        hostile.MARKERS.xmp,
        hostile.MARKERS.comment,
      ]),
    );
  });

  it('keeps answering other requests throughout', async () => {
    expect((await ctx.send('GET', `/v1/properties/${propertyId}`)).statusCode).toBe(200);
    expect((await ctx.send('GET', '/health/live')).statusCode).toBe(200);
  });
});

describe('the limit of media per property', () => {
  it('refuses one more than the limit with 422 (media, out_of_range) before reading the file', async () => {
    const id = (await ctx.send('POST', '/v1/properties', validProperty())).json().id;
    await ctx.db.prisma.property.update({ where: { id }, data: { media_count: 100 } });
    const refused = await uploadMedia(ctx, id, [
      { name: 'kind', value: 'photo' },
      { name: 'file', filename: 'a.webp', type: 'image/webp', data: webp(8, 8) },
    ]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'media', reason: 'out_of_range' }],
      message: expect.stringMatching(/at most 100 media/),
    });
    expect(await ctx.db.prisma.propertyMedia.count({ where: { property_id: id } })).toBe(0);
  });
});
