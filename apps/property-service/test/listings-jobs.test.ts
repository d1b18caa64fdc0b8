import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SWEEPS, STUCK_AFTER_MS, generationJobId } from '@platform/documents';
import { whileHeld } from '@platform/testkit';
import { SWEEP_LISTINGS_JOB } from '../src/listings/index.js';
import { blobFiles } from './media-helpers.js';
import {
  propertyWithPhotos,
  runGeneration,
  settledListing,
  startListing,
  startPropertyApp,
  validProperty,
  type PropertyTestContext,
} from './helpers.js';

// No job worker runs unless a test starts one: the tests run the jobs themselves.
let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const jobContext = () => ({
  db: ctx.db.prisma,
  now: ctx.clock.now,
  storage: ctx.storage,
  sandbox: ctx.sandbox,
  jobs: ctx.jobs,
});
const sweep = () => SWEEP_LISTINGS_JOB.run(jobContext(), {});
/** Moves the app's clock past the time after which a generating listing counts as stuck. */
const pastStuck = () => (ctx.clock.now = new Date(ctx.clock.now.getTime() + STUCK_AFTER_MS + 60_000));

async function completedEvents(listingId: string) {
  const events = await ctx.db.prisma.outboxEvent.findMany({ where: { type: 'listing.completed' } });
  return events.map((e) => JSON.parse(e.payload).data).filter((data) => data.listing_id === listingId);
}

/** Generates whatever earlier tests left generating, so that the sweeper's counts are the test's own. */
async function settleOthers() {
  for (const { id } of await ctx.db.prisma.listing.findMany({ where: { status: 'generating' }, select: { id: true } }))
    await runGeneration(ctx, id);
}

const getListing = (id: string) => ctx.send('GET', `/v1/listings/${id}`).then((r) => r.json());

describe('generate-listing: idempotent', () => {
  it('a second run of a finished listing does nothing: one PDF, one listing.completed', async () => {
    const { id } = await startListing(ctx, await propertyWithPhotos(ctx));
    expect(await runGeneration(ctx, id)).toEqual({ listing_id: id, outcome: 'completed' });
    const listing = await getListing(id);
    expect(await runGeneration(ctx, id)).toEqual({ listing_id: id, outcome: 'skipped' });
    expect(await getListing(id)).toEqual(listing);
    expect(await completedEvents(id)).toHaveLength(1);
    expect((await blobFiles(ctx.blobRoot)).filter((f) => f.endsWith(listing.pdf.sha256))).toHaveLength(1);
  });

  it('two runs at once (forced to interleave at the completion) store one PDF and emit one listing.completed', async () => {
    const { id } = await startListing(ctx, await propertyWithPhotos(ctx));
    const { result, waited } = await whileHeld(
      ctx.db,
      (tx) => tx.$queryRawUnsafe('SELECT id FROM listings WHERE id = $1 FOR UPDATE', id),
      () => Promise.all([runGeneration(ctx, id), runGeneration(ctx, id)]),
      2,
    );
    expect(waited).toBe(2);
    expect(result.map((r) => r.outcome).sort()).toEqual(['completed', 'skipped']);
    const listing = await getListing(id);
    expect(listing.status).toBe('completed');
    expect(await completedEvents(id)).toHaveLength(1);
    const files = await blobFiles(ctx.blobRoot);
    expect(files.filter((f) => f.endsWith(listing.pdf.sha256))).toHaveLength(1);
    expect(files.filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(await ctx.storage.exists(listing.pdf.sha256)).toBe(true);
  });
});

describe('generation refused at the request', () => {
  it('answers 422 with media and purchase_price_eur for a property without photo or price', async () => {
    const { purchase_price_eur: _price, ...noPrice } = validProperty();
    const bare = (await ctx.send('POST', '/v1/properties', noPrice)).json().id;
    const res = await ctx.send('POST', `/v1/properties/${bare}/listings`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: expect.any(String),
      details: [
        { field: 'media', reason: 'missing' },
        { field: 'purchase_price_eur', reason: 'missing' },
      ],
    });
    const photoOnly = await propertyWithPhotos(ctx, { purchase_price_eur: undefined });
    expect((await ctx.send('POST', `/v1/properties/${photoOnly}/listings`)).json().details).toEqual([
      { field: 'purchase_price_eur', reason: 'missing' },
    ]);
    // A cold rent is a price as well.
    expect(
      (
        await ctx.send(
          'POST',
          `/v1/properties/${await propertyWithPhotos(ctx, { purchase_price_eur: undefined, cold_rent_eur: 900 })}/listings`,
        )
      ).statusCode,
    ).toBe(202);
    expect(await ctx.db.prisma.listing.count({ where: { property_id: { in: [bare, photoOnly] } } })).toBe(0);
  });

  it('answers 409 for an archived property and creates nothing', async () => {
    const propertyId = await propertyWithPhotos(ctx);
    expect((await ctx.send('POST', `/v1/properties/${propertyId}/archive`)).statusCode).toBe(200);
    const res = await ctx.send('POST', `/v1/properties/${propertyId}/listings`);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict');
    expect(await ctx.db.prisma.listing.count({ where: { property_id: propertyId } })).toBe(0);
  });
});

describe('sweep-listings', () => {
  it('enqueues a listing in generating again when its job was lost, and once more when it is stuck; the worker completes it', async () => {
    await settleOthers();
    const { id } = await startListing(ctx, await propertyWithPhotos(ctx));
    await ctx.jobs.queue.remove(generationJobId(id)); // the job is lost
    // The queue does not know its job: enqueued again at once, under the same id.
    expect(await sweep()).toEqual({ resumed: 1, retried: 0, failed: 0 });
    expect((await ctx.jobs.queue.getJob(generationJobId(id)))?.data).toEqual({ listing_id: id });
    expect(await sweep()).toEqual({ resumed: 0, retried: 0, failed: 0 }); // its job waits now
    // Still not done 10 minutes later (no worker): taken again under a new job id.
    pastStuck();
    expect(await sweep()).toEqual({ resumed: 0, retried: 1, failed: 0 });
    const job = await ctx.jobs.queue.getJob(generationJobId(id, 1));
    expect(job?.name).toBe('generate-listing');
    expect(job?.data).toEqual({ listing_id: id });
    expect(await sweep()).toEqual({ resumed: 0, retried: 0, failed: 0 }); // swept a moment ago

    const stop = await ctx.startJobWorker();
    try {
      const listing = await settledListing(ctx, id);
      expect(listing).toMatchObject({ status: 'completed', failure_reason: null });
      expect(await completedEvents(id)).toHaveLength(1);
    } finally {
      await stop();
    }
  });

  it(`fails a listing with a reason after ${MAX_SWEEPS} sweeps; a late run then does nothing`, async () => {
    await settleOthers();
    const { id } = await startListing(ctx, await propertyWithPhotos(ctx));
    for (let sweeps = 1; sweeps <= MAX_SWEEPS; sweeps++) {
      pastStuck();
      expect(await sweep()).toEqual({ resumed: 0, retried: 1, failed: 0 });
      expect((await getListing(id)).status).toBe('generating');
    }
    pastStuck();
    expect(await sweep()).toEqual({ resumed: 0, retried: 0, failed: 1 });
    const failed = await getListing(id);
    expect(failed).toMatchObject({ status: 'failed', pdf: null });
    expect(failed.failure_reason).toMatch(/did not finish/);
    expect(await runGeneration(ctx, id)).toEqual({ listing_id: id, outcome: 'skipped' });
    expect(await completedEvents(id)).toEqual([]);
    const publish = await ctx.send('POST', `/v1/listings/${id}/publish`, { channels: ['chan_any'] });
    expect(publish.statusCode).toBe(409);
  });
});
