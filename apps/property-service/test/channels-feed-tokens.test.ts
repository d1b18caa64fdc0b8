import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessMetrics } from '@platform/runtime';
import type { RequestSample } from '@platform/service';
import type { BlobStorage } from '@platform/storage';
import { startTestApp, type AppBuildDeps } from '@platform/testkit';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';
import {
  completedListing,
  createChannel,
  eventData,
  feedPathOf,
  propertyWithPhotos,
  type PropertyTestContext,
} from './helpers.js';

let ctx: PropertyTestContext;
let deps: AppBuildDeps;
const samples: RequestSample[] = [];
const metrics = new ProcessMetrics();
/** While on, every read of the blob storage fails (a download then errors: 500). */
const storageFault = { on: false };

/** The storage of the app, failing reads while `storageFault.on`. */
function flaky(storage: BlobStorage): BlobStorage {
  return {
    put: (source, options) => storage.put(source, options),
    get: (key) => (storageFault.on ? Promise.reject(new Error('the disk is gone')) : storage.get(key)),
    delete: (key) => storage.delete(key),
    exists: (key) => storage.exists(key),
    ...(storage.localPath ? { localPath: (key: string) => storage.localPath!(key) } : {}),
  };
}

const build = (given: AppBuildDeps) =>
  buildPropertyApp({
    ...given,
    storage: flaky(given.storage),
    observeRequest: (sample) => {
      samples.push(sample);
      metrics.observeRequest(sample);
    },
  });

beforeAll(async () => {
  ctx = await startTestApp(propertyDescriptor, (given) => {
    deps = given;
    return build(given);
  });
});
afterAll(() => ctx.close());

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });
const tokenOf = (feedUrl: string) => /\/feeds\/([^/]+)\/listings$/.exec(feedUrl)![1]!;

/** A website channel with one live listing; its feed path, token and the listing. */
async function liveFeed() {
  const channel = await createChannel(ctx, 'website');
  const listing = await completedListing(ctx, await propertyWithPhotos(ctx));
  expect((await ctx.send('POST', `/v1/listings/${listing.id}/publish`, { channels: [channel.id] })).statusCode).toBe(
    200,
  );
  const path = feedPathOf(channel.feed_url);
  return { channel, listing, path, token: tokenOf(channel.feed_url), base: path.replace(/\/listings$/, '') };
}

describe('feed tokens in logs and metrics', () => {
  it('no log line and no metric label holds a token: feeds, 304, an unknown token, unrouted paths and a download that errors', async () => {
    const { listing, path, token, base } = await liveFeed();
    const unknown = randomBytes(24).toString('base64url');
    const logStart = ctx.logs.lines.length;
    const sampleStart = samples.length;

    const feed = await get(path);
    expect(feed.statusCode).toBe(200);
    expect((await get(path, { 'if-none-match': feed.headers.etag as string })).statusCode).toBe(304);
    expect((await get(`${path}/${listing.id}`)).statusCode).toBe(200);
    expect((await get(`${base}/media/${listing.media[0].sha256}`)).statusCode).toBe(200);
    expect((await get(`/public/v1/feeds/${unknown}/listings`)).statusCode).toBe(404);
    expect((await get(`${base}/no-such-part`)).statusCode).toBe(404);
    expect((await get(`/${path}?status=${encodeURIComponent(path)}`)).statusCode).toBe(404);
    expect((await get(`/public/v1/%66eeds/${token}/listings`)).statusCode).toBe(200); // the router decodes it
    storageFault.on = true;
    try {
      const failed = await get(`${path}/${listing.id}/pdf`);
      expect(failed.statusCode).toBe(500);
    } finally {
      storageFault.on = false;
    }

    const lines = ctx.logs.lines
      .slice(logStart)
      .map((line) => JSON.parse(line) as { msg: string; req?: { url: string }; res?: { statusCode: number } });
    const text = ctx.logs.lines.slice(logStart).join('');
    expect(text).not.toContain(token);
    expect(text).not.toContain(unknown);
    // Each request is in the log, its URL with the token's place marked.
    const requests = lines.filter((line) => line.req);
    expect(requests.map((line) => line.res?.statusCode)).toEqual([200, 304, 200, 200, 404, 404, 404, 200, 500]);
    for (const line of requests) expect(line.req!.url).toMatch(/\/public\/v1\/feeds\/\[REDACTED\](\/|$)/i);
    expect(requests[0]!.req!.url).toBe('/public/v1/feeds/[REDACTED]/listings');
    expect(lines.some((line) => line.msg === 'unexpected error')).toBe(true);

    const answered = samples.slice(sampleStart);
    expect(answered.map((sample) => sample.route)).toEqual([
      '/public/v1/feeds/:feedToken/listings',
      '/public/v1/feeds/:feedToken/listings',
      '/public/v1/feeds/:feedToken/listings/:listingId',
      '/public/v1/feeds/:feedToken/media/:sha256',
      '/public/v1/feeds/:feedToken/listings',
      '(unmatched)',
      '(unmatched)',
      '/public/v1/feeds/:feedToken/listings',
      '/public/v1/feeds/:feedToken/listings/:listingId/pdf',
    ]);
    const scraped = await metrics.registry.metrics();
    expect(scraped).toContain('route="/public/v1/feeds/:feedToken/listings"');
    expect(scraped).not.toContain(token);
    expect(scraped).not.toContain(unknown);
  });
});

describe('rotating a feed token', () => {
  it('answers the channel with a new feed_url; the old token is refused at once, its cached feed too, and the event holds no token', async () => {
    const { channel, listing, path, token, base } = await liveFeed();
    expect((await get(path)).statusCode).toBe(200); // now in this process's cache
    expect((await get(`${path}/${listing.id}`)).statusCode).toBe(200);

    const res = await ctx.send('POST', `/v1/channels/${channel.id}/rotate-feed-token`);
    expect(res.statusCode).toBe(200);
    const rotated = res.json();
    expect(rotated).toMatchObject({ id: channel.id, type: 'website', name: channel.name, live_listings: 1 });
    expect(rotated.feed_url).not.toBe(channel.feed_url);
    const newToken = tokenOf(rotated.feed_url);
    expect(newToken).toMatch(/^[A-Za-z0-9_-]{32}$/);

    // The clock has not moved: the cached feed would still be fresh, and is not served.
    for (const url of [
      path,
      `${path}/${listing.id}`,
      `${path}/${listing.id}/pdf`,
      `${base}/media/${listing.media[0].sha256}`,
    ]) {
      const old = await get(url);
      expect(old.statusCode, url).toBe(404);
      expect(old.json()).toEqual({ code: 'not_found', message: 'No feed with this token.' });
    }
    const fresh = await get(feedPathOf(rotated.feed_url));
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().listings.map((l: { id: string }) => l.id)).toEqual([listing.id]);
    expect(fresh.body).toContain(`/feeds/${newToken}/media/`);
    expect(fresh.body).not.toContain(token);
    expect((await ctx.send('GET', `/v1/channels/${channel.id}`)).json().feed_url).toBe(rotated.feed_url);

    const events = await ctx.db.prisma.outboxEvent.findMany({ where: { type: 'channel.feed_token_rotated' } });
    const mine = events.map((event) => JSON.parse(event.payload).data).filter((data) => data.channel_id === channel.id);
    expect(mine).toEqual([
      { channel_id: channel.id, name: channel.name, type: 'website', rotated_at: ctx.clock.now.toISOString() },
    ]);
    for (const event of events) {
      expect(event.payload).not.toContain(token);
      expect(event.payload).not.toContain(newToken);
    }
  });

  it('refuses the old token on another instance that has the feed cached under it', async () => {
    const { channel, path } = await liveFeed();
    const second = await build(deps);
    await second.ready();
    try {
      expect((await second.inject({ method: 'GET', url: path })).statusCode).toBe(200);
      const rotated = (await ctx.send('POST', `/v1/channels/${channel.id}/rotate-feed-token`)).json();
      expect((await second.inject({ method: 'GET', url: path })).statusCode).toBe(404);
      expect((await second.inject({ method: 'GET', url: feedPathOf(rotated.feed_url) })).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('rotates once for a retried request with the same Idempotency-Key, and not at all for a missing channel', async () => {
    const channel = await createChannel(ctx, 'website');
    const before = (await eventData(ctx, 'channel.feed_token_rotated')).length;
    const rotate = () =>
      ctx.app.inject({
        method: 'POST',
        url: `/v1/channels/${channel.id}/rotate-feed-token`,
        headers: { apikey: ctx.tenant.key, 'idempotency-key': `rotate-${channel.id}` },
      });
    const first = await rotate();
    const again = await rotate();
    expect(first.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().feed_url).toBe(first.json().feed_url);
    expect((await ctx.send('GET', `/v1/channels/${channel.id}`)).json().feed_url).toBe(first.json().feed_url);
    expect((await ctx.send('POST', '/v1/channels/chan_missing/rotate-feed-token')).statusCode).toBe(404);
    expect((await ctx.send('POST', `/v1/channels/${channel.id}/rotate-feed-token`, { token: 'mine' })).statusCode).toBe(
      422,
    );
    expect((await eventData(ctx, 'channel.feed_token_rotated')).length).toBe(before + 1);
  });
});
