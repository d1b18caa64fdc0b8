import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import { jpeg, pdf } from '@platform/uploads/testing';
import { pngWithBrokenZlib } from '@platform/uploads/testing/hostile';
import { MEDIA_RENDITIONS_JOB } from '../src/media/index.js';
import {
  completedListing,
  createChannel,
  energyCertificate,
  feedPathOf,
  startPropertyApp,
  validProperty,
  type PropertyTestContext,
} from './helpers.js';

// Media stored before renditions were made at upload: the job makes them, or records why not;
// until then, and for ever after a failure, the original is never published.

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const run = () =>
  MEDIA_RENDITIONS_JOB.run(
    { db: ctx.db.prisma, now: ctx.clock.now, storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs },
    {},
  );

/** A medium as an older version stored it: the blob and the row, no renditions. */
async function legacyMedium(
  propertyId: string,
  kind: 'photo' | 'floor_plan' | 'document',
  contentType: string,
  data: Buffer,
  position: number,
) {
  const blob = await ctx.storage.put(Readable.from([data]));
  const at = new Date();
  await ctx.db.prisma.propertyMedia.create({
    data: {
      id: newId('med', at.getTime()),
      account_id: ctx.tenant.accountId,
      property_id: propertyId,
      kind,
      title: null,
      position,
      content_type: contentType,
      size: blob.size,
      sha256: blob.sha256,
      filename: 'old',
      width: 1,
      height: 1,
      created_at: at,
      updated_at: at,
    },
  });
  await ctx.db.prisma.property.update({ where: { id: propertyId }, data: { media_count: { increment: 1 } } });
  return (
    await ctx.db.prisma.propertyMedia.findFirstOrThrow({ where: { sha256: blob.sha256, property_id: propertyId } })
  ).id;
}

describe('make-media-renditions', () => {
  it('makes the renditions of older photos, records why a damaged one cannot be published, and leaves documents alone', async () => {
    const propertyId = (
      await ctx.send('POST', '/v1/properties', {
        ...validProperty(),
        year_built: 1998,
        energy_certificate: energyCertificate(),
      })
    ).json().id;
    const good = await legacyMedium(propertyId, 'photo', 'image/jpeg', jpeg(800, 600, 'legacy'), 0);
    const broken = await legacyMedium(propertyId, 'photo', 'image/png', pngWithBrokenZlib(), 1);
    const document = await legacyMedium(propertyId, 'document', 'application/pdf', pdf('legacy'), 2);

    // Until the job has run, no photo of the property can be published.
    const early = await ctx.send('POST', `/v1/properties/${propertyId}/listings`);
    expect(early.statusCode).toBe(422);
    expect(early.json().details).toEqual([{ field: 'media', reason: 'missing' }]);

    expect(await run()).toEqual({ made: 1, failed: 1 });
    const view = async (id: string) => (await ctx.send('GET', `/v1/properties/${propertyId}/media/${id}`)).json();
    expect(await view(good)).toMatchObject({
      width: 800,
      height: 600,
      rendition_failure: null,
      renditions: [
        { variant: 'large', width: 800 },
        { variant: 'thumbnail', width: 640 },
      ],
    });
    expect(await view(broken)).toMatchObject({
      renditions: [],
      rendition_failure: expect.stringMatching(/cannot be decoded/),
    });
    expect(await view(document)).toMatchObject({ renditions: [], rendition_failure: null });
    expect(await run()).toEqual({ made: 0, failed: 0 });

    const listing = await completedListing(ctx, propertyId);
    expect(listing.media.map((m: { id: string }) => m.id)).toEqual([good]);
  });

  it("never serves a listing's `original` media (listings generated before renditions) on a feed", async () => {
    const propertyId = (
      await ctx.send('POST', '/v1/properties', {
        ...validProperty(),
        year_built: 1998,
        energy_certificate: energyCertificate(),
      })
    ).json().id;
    await legacyMedium(propertyId, 'photo', 'image/jpeg', jpeg(400, 300, 'older'), 0);
    await run();
    const listing = await completedListing(ctx, propertyId);
    const original = await ctx.storage.put(Readable.from([jpeg(120, 90, 'tenant bytes')]));
    await ctx.db.prisma.listingMedia.create({
      data: {
        id: newId('lmed'),
        listing_id: listing.id,
        position: 1,
        variant: 'original',
        account_id: ctx.tenant.accountId,
        media_id: 'med_old',
        kind: 'photo',
        title: null,
        content_type: 'image/jpeg',
        size: original.size,
        sha256: original.sha256,
        width: 120,
        height: 90,
      },
    });
    const shown = (await ctx.send('GET', `/v1/listings/${listing.id}`)).json();
    expect(
      shown.media.map((m: { published: boolean; sha256: string }) => [m.published, m.sha256 === original.sha256]),
    ).toEqual([
      [true, false],
      [false, true],
    ]);
    const channel = await createChannel(ctx, 'website');
    expect((await ctx.send('POST', `/v1/listings/${listing.id}/publish`, { channels: [channel.id] })).statusCode).toBe(
      200,
    );
    const feed = JSON.parse((await ctx.app.inject({ method: 'GET', url: feedPathOf(channel.feed_url) })).body);
    expect(feed.listings[0].media).toHaveLength(1);
    const mediaBase = feed.listings[0].media[0].url.replace(/[0-9a-f]{64}$/, '');
    expect(
      (await ctx.app.inject({ method: 'GET', url: feedPathOf(`${mediaBase}${original.sha256}`) })).statusCode,
    ).toBe(404);
  });
});
