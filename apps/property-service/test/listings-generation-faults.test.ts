import { chmod, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngWithBrokenZlib, zeroPng } from '@platform/uploads/testing/hostile';
import { jpeg } from '@platform/uploads/testing';
import {
  energyCertificate,
  runGeneration,
  propertyWithPhotos,
  settledListing,
  startListing,
  startPropertyApp,
  validProperty,
  type PropertyTestContext,
} from './helpers.js';
import { photoParts, uploadMedia } from './media-helpers.js';

// An exposé's renderer that fails in the worst ways — a decoder throwing inside a zlib callback,
// a decoder exhausting the sandbox's memory — ends that one document as `failed` with its reason.
// The stored rendition is replaced by a hostile PNG here (as damaged storage would), since an
// upload never lets such a file through.

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

let photos = 0;

/**
 * A listing of a property with one photo, generating; its cover's stored file is replaced by `data`.
 * The photo's pixels are its own (renditions of equal pixels are one blob, shared by every listing).
 */
async function listingWithCover(data: Buffer) {
  const propertyId = (
    await ctx.send('POST', '/v1/properties', {
      ...validProperty(),
      year_built: 1998,
      energy_certificate: energyCertificate(),
    })
  ).json().id;
  expect(
    (await uploadMedia(ctx, propertyId, photoParts(jpeg(97 + ++photos, 61, 'own'), [], 'image/jpeg', 'photo.jpg')))
      .statusCode,
  ).toBe(201);
  const listing = await startListing(ctx, propertyId);
  const row = await ctx.db.prisma.listingMedia.findFirstOrThrow({
    where: { listing_id: listing.id, variant: 'large' },
  });
  const path = ctx.storage.localPath!(row.sha256);
  await chmod(path, 0o600);
  await writeFile(path, data);
  return listing.id;
}

const state = async (id: string) =>
  ctx.db.prisma.listing.findUniqueOrThrow({
    where: { id },
    select: { status: true, failure_reason: true, abnormal_ends: true, render_lease_until: true },
  });

describe('exposé generation that takes its renderer down', () => {
  it('a decoder throwing inside a zlib callback: the worker retries once, then the listing fails with the reason; the service answers throughout', async () => {
    const id = await listingWithCover(pngWithBrokenZlib());
    const stopWorker = await ctx.startJobWorker();
    try {
      const settled = await settledListing(ctx, id);
      expect(settled.status).toBe('failed');
      expect(settled.failure_reason).toMatch(
        /^Rendering ended abnormally 2 times; the last time its renderer stopped with an error: .*(incorrect header check|invalid)/i,
      );
    } finally {
      await stopWorker();
    }
    expect(await state(id)).toMatchObject({ status: 'failed', abnormal_ends: 2, render_lease_until: null });
    expect((await ctx.send('GET', '/v1/listings?limit=5')).statusCode).toBe(200);
    // Taken again after a restart (a stalled job, the sweeper): nothing is rendered any more.
    expect(await runGeneration(ctx, id)).toEqual({ listing_id: id, outcome: 'skipped' });
  });

  it('a decoder exhausting the memory limit (an 8000 × 8000 PNG decoded by pdfkit): failed with the limit named, no second try after that', async () => {
    const id = await listingWithCover(await zeroPng(8000, 8000));
    await expect(runGeneration(ctx, id)).rejects.toThrow(
      /ended abnormally \(its renderer needed more than the memory limit of 512 MiB\)/,
    );
    expect(await state(id)).toMatchObject({ status: 'generating', abnormal_ends: 1, render_lease_until: null });
    expect(await runGeneration(ctx, id)).toEqual({ listing_id: id, outcome: 'failed' });
    expect(await state(id)).toMatchObject({
      status: 'failed',
      abnormal_ends: 2,
      failure_reason: expect.stringMatching(/memory limit of 512 MiB/),
    });
    expect((await ctx.send('GET', `/v1/listings/${id}`)).json()).toMatchObject({ status: 'failed', pdf: null });
  });

  it('other listings go on being generated in the same sandbox', async () => {
    const listing = await startListing(ctx, await propertyWithPhotos(ctx));
    expect(await runGeneration(ctx, listing.id)).toEqual({ listing_id: listing.id, outcome: 'completed' });
  });
});
