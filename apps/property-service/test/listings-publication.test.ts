import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completedListing,
  createChannel,
  energyCertificate,
  feedPathOf,
  propertyWithPhotos,
  startListing,
  startPropertyApp,
  type PropertyTestContext,
} from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

const publish = (listingId: string, channels: string[], key = ctx.tenant.key) =>
  ctx.send('POST', `/v1/listings/${listingId}/publish`, { channels }, key);
const withdraw = (listingId: string, channels?: string[]) =>
  ctx.send('POST', `/v1/listings/${listingId}/withdraw`, channels ? { channels } : undefined);
const getChannel = (id: string) => ctx.send('GET', `/v1/channels/${id}`);

/** A channel created a millisecond after the previous one: listings show their channels in creation order. */
function newChannel(type: 'website' | 'openimmo') {
  ctx.clock.now = new Date(ctx.clock.now.getTime() + 1);
  return createChannel(ctx, type);
}

/** The `listing.published` events of a listing, as written to the outbox. */
async function publishedEvents(listingId: string) {
  const events = await ctx.db.prisma.outboxEvent.findMany({
    where: { type: 'listing.published' },
    orderBy: { created_at: 'asc' },
  });
  return events
    .map((e) => ({ raw: e.payload, data: JSON.parse(e.payload).data }))
    .filter((e) => e.data.listing_id === listingId);
}

/** A completed listing of a fresh, publishable property (Germany unless overridden). */
async function readyListing(overrides: Record<string, unknown> = {}) {
  const propertyId = await propertyWithPhotos(ctx, {
    address: { street: 'Parkstraße 5', postal_code: '10115', city: 'Berlin', country: 'DE' },
    ...overrides,
  });
  return completedListing(ctx, propertyId);
}

describe('channels', () => {
  it('creates website and OpenImmo channels with a public feed URL; a duplicate name is 409; renames; lists with live_listings', async () => {
    const website = await createChannel(ctx, 'website', 'Website');
    const portal = await createChannel(ctx, 'openimmo', 'Portal (OpenImmo)');
    expect(website).toMatchObject({ type: 'website', name: 'Website', live_listings: 0 });
    expect(website.feed_url).toMatch(
      /^https:\/\/api\.example\.test\/public\/v1\/feeds\/[A-Za-z0-9_-]{20,64}\/listings$/,
    );
    expect(portal.feed_url).not.toBe(website.feed_url);

    const duplicate = await ctx.send('POST', '/v1/channels', { type: 'openimmo', name: 'Website' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().code).toBe('conflict');
    // Names are unique per account only.
    expect(
      (await ctx.send('POST', '/v1/channels', { type: 'website', name: 'Website' }, ctx.other.key)).statusCode,
    ).toBe(201);

    const renamed = await ctx.send('PATCH', `/v1/channels/${portal.id}`, { name: 'Portal' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: portal.id, name: 'Portal', feed_url: portal.feed_url });
    expect((await ctx.send('PATCH', `/v1/channels/${portal.id}`, { name: 'Website' })).statusCode).toBe(409);

    const listing = await readyListing();
    expect((await publish(listing.id, [website.id])).statusCode).toBe(200);
    const page = (await ctx.send('GET', '/v1/channels?limit=100')).json();
    const byId = new Map(page.data.map((c: { id: string; live_listings: number }) => [c.id, c.live_listings]));
    expect(byId.get(website.id)).toBe(1);
    expect(byId.get(portal.id)).toBe(0);
    expect((await getChannel(website.id)).json().live_listings).toBe(1);
  });

  it('refuses to delete a channel while a listing is live on it (409) and deletes it after the withdrawal', async () => {
    const channel = await newChannel('website');
    const listing = await readyListing();
    expect((await publish(listing.id, [channel.id])).statusCode).toBe(200);
    const refused = await ctx.send('DELETE', `/v1/channels/${channel.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('conflict');
    expect((await getChannel(channel.id)).statusCode).toBe(200);

    expect((await withdraw(listing.id)).statusCode).toBe(200);
    expect((await ctx.send('DELETE', `/v1/channels/${channel.id}`)).statusCode).toBe(204);
    expect((await getChannel(channel.id)).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: feedPathOf(channel.feed_url) })).statusCode).toBe(404);
  });
});

describe('publishing: the energy-certificate rule and the guards', () => {
  it('answers 422 with exactly the missing disclosure of an apartment', async () => {
    const { final_energy_demand_kwh: _left, ...certificate } = energyCertificate();
    const listing = await readyListing({ energy_certificate: certificate });
    const channel = await newChannel('website');
    const res = await publish(listing.id, [channel.id]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: expect.any(String),
      details: [{ field: 'energy_certificate.final_energy_demand_kwh', reason: 'missing' }],
    });
    const after = (await ctx.send('GET', `/v1/listings/${listing.id}`)).json();
    expect(after).toMatchObject({ status: 'completed', channels: [] });
    expect(await publishedEvents(listing.id)).toEqual([]);
  });

  it('answers 422 out_of_range for an expired certificate', async () => {
    const listing = await readyListing({ energy_certificate: { ...energyCertificate(), valid_until: '2020-01-31' } });
    const res = await publish(listing.id, [(await newChannel('website')).id]);
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'energy_certificate.valid_until', reason: 'out_of_range' }]);
  });

  it('refuses a listing that is still generating (409)', async () => {
    const propertyId = await propertyWithPhotos(ctx);
    const listing = await startListing(ctx, propertyId); // no worker runs in this file
    const res = await publish(listing.id, [(await newChannel('website')).id]);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('invalid_transition');
  });

  it("refuses an unknown channel and another account's channel (422 on the channel's position)", async () => {
    const listing = await readyListing();
    const mine = await newChannel('website');
    const theirs = await createChannel(ctx, 'website', undefined, ctx.other.key);
    const res = await publish(listing.id, [mine.id, 'chan_missing', theirs.id]);
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { field: 'channels.1', reason: 'not_allowed' },
      { field: 'channels.2', reason: 'not_allowed' },
    ]);
    expect((await ctx.send('GET', `/v1/listings/${listing.id}`)).json().channels).toEqual([]);
  });

  it("answers another account's listing like a missing one (404)", async () => {
    const theirs = await completedListing(ctx, await propertyWithPhotos(ctx, {}, ctx.other.key), ctx.other.key);
    const res = await publish(theirs.id, [(await newChannel('website')).id]);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
    expect((await ctx.send('GET', `/v1/listings?property_id=${theirs.property_id}`)).json().data).toEqual([]);
  });
});

describe('publishing and withdrawing', () => {
  it('goes live on every channel: published, per-channel live, listing.published with exactly ids and channel names', async () => {
    const listing = await readyListing({
      description: 'Private note for the seller',
      commission: { buyer_percent: 3.57, engaged_by: 'buyer', note: 'Call Frau Muster, 0171 1234567' },
    });
    const website = await newChannel('website');
    const portal = await newChannel('openimmo');
    const res = await publish(listing.id, [website.id, portal.id]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('published');
    expect(body.published_at).toBe(ctx.clock.now.toISOString());
    expect(body.channels).toEqual([
      {
        channel_id: website.id,
        channel_name: website.name,
        channel_type: 'website',
        state: 'live',
        reason: null,
        live_at: ctx.clock.now.toISOString(),
        withdrawn_at: null,
      },
      {
        channel_id: portal.id,
        channel_name: portal.name,
        channel_type: 'openimmo',
        state: 'live',
        reason: null,
        live_at: ctx.clock.now.toISOString(),
        withdrawn_at: null,
      },
    ]);
    const events = await publishedEvents(listing.id);
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({
      listing_id: listing.id,
      property_id: listing.property_id,
      channels: [website.name, portal.name],
    });
    expect(events[0].raw).not.toMatch(/Muster|0171|Private note/);

    // Publishing again where it is live already changes nothing and emits nothing.
    const again = await publish(listing.id, [website.id]);
    expect(again.json().channels).toEqual(body.channels);
    expect(await publishedEvents(listing.id)).toHaveLength(1);
  });

  it('fails the OpenImmo channel with a reason for a country it cannot name, while the website goes live', async () => {
    const listing = await readyListing({
      address: { street: 'Nowhere 1', postal_code: '12345', city: 'Atlantis', country: 'ZZ' },
    });
    const website = await newChannel('website');
    const portal = await newChannel('openimmo');
    const res = await publish(listing.id, [website.id, portal.id]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('published');
    const states = Object.fromEntries(
      body.channels.map((c: { channel_id: string; state: string; reason: string | null }) => [c.channel_id, c]),
    );
    expect(states[website.id]).toMatchObject({ state: 'live', reason: null });
    expect(states[portal.id]).toMatchObject({ state: 'failed', live_at: null });
    expect(states[portal.id].reason).toMatch(/country.*ZZ/);
    expect((await publishedEvents(listing.id)).map((e) => e.data.channels)).toEqual([[website.name]]);
    expect((await getChannel(portal.id)).json().live_listings).toBe(0);
  });

  it('withdraws from one channel (still published), then from all (withdrawn), and may publish again', async () => {
    const listing = await readyListing();
    const website = await newChannel('website');
    const portal = await newChannel('openimmo');
    const firstPublished = (await publish(listing.id, [website.id, portal.id])).json().published_at;
    expect(firstPublished).toBe(ctx.clock.now.toISOString());

    ctx.clock.now = new Date(ctx.clock.now.getTime() + 1000);
    const one = await withdraw(listing.id, [portal.id]);
    expect(one.statusCode).toBe(200);
    expect(one.json().status).toBe('published');
    expect(one.json().channels.map((c: { state: string }) => c.state)).toEqual(['live', 'withdrawn']);
    expect(one.json().channels[1].withdrawn_at).toBe(ctx.clock.now.toISOString());

    const unknown = await withdraw(listing.id, ['chan_missing']);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details).toEqual([{ field: 'channels.0', reason: 'not_allowed' }]);

    const all = await withdraw(listing.id);
    expect(all.statusCode).toBe(200);
    expect(all.json().status).toBe('withdrawn');
    expect(all.json().channels.map((c: { state: string }) => c.state)).toEqual(['withdrawn', 'withdrawn']);
    expect((await getChannel(website.id)).json().live_listings).toBe(0);

    const republished = await publish(listing.id, [portal.id]);
    expect(republished.json()).toMatchObject({ status: 'published', published_at: firstPublished });
    expect((await publishedEvents(listing.id)).map((e) => e.data.channels)).toEqual([
      [website.name, portal.name],
      [portal.name],
    ]);
  });

  it("shows the channels of every listing of a page in the channels' creation order, named and typed as they are now", async () => {
    const propertyId = await propertyWithPhotos(ctx, {
      address: { street: 'Parkstraße 5', postal_code: '10115', city: 'Berlin', country: 'DE' },
    });
    const first = await completedListing(ctx, propertyId);
    const second = await completedListing(ctx, propertyId);
    const website = await newChannel('website');
    const portal = await newChannel('openimmo');
    // Asked in the other order: shown (and named in the event) in the order the channels were created.
    const res = await publish(first.id, [portal.id, website.id]);
    expect(res.json().channels.map((c: { channel_id: string }) => c.channel_id)).toEqual([website.id, portal.id]);
    expect((await publishedEvents(first.id)).map((e) => e.data.channels)).toEqual([[website.name, portal.name]]);
    expect((await publish(second.id, [portal.id])).statusCode).toBe(200);

    const renamed = `${website.name} (renamed)`;
    expect((await ctx.send('PATCH', `/v1/channels/${website.id}`, { name: renamed })).statusCode).toBe(200);
    const page = (await ctx.send('GET', `/v1/listings?property_id=${propertyId}&limit=10`)).json();
    const channelsOf = new Map(
      page.data.map((l: { id: string; channels: { channel_name: string; channel_type: string; state: string }[] }) => [
        l.id,
        l.channels.map((c) => [c.channel_name, c.channel_type, c.state]),
      ]),
    );
    expect(channelsOf.get(first.id)).toEqual([
      [renamed, 'website', 'live'],
      [portal.name, 'openimmo', 'live'],
    ]);
    expect(channelsOf.get(second.id)).toEqual([[portal.name, 'openimmo', 'live']]);
    expect((await ctx.send('GET', `/v1/listings/${first.id}`)).json().channels).toEqual(
      page.data.find((l: { id: string }) => l.id === first.id).channels,
    );
  });

  it('takes every listing of an archived property off every channel; its feeds no longer show it; it cannot be published again', async () => {
    const propertyId = await propertyWithPhotos(ctx, {
      address: { street: 'Parkstraße 5', postal_code: '10115', city: 'Berlin', country: 'DE' },
    });
    const first = await completedListing(ctx, propertyId);
    const second = await completedListing(ctx, propertyId);
    const website = await newChannel('website');
    const portal = await newChannel('openimmo');
    expect((await publish(first.id, [website.id, portal.id])).statusCode).toBe(200);
    expect((await publish(second.id, [website.id])).statusCode).toBe(200);

    const archived = await ctx.send('POST', `/v1/properties/${propertyId}/archive`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json().status).toBe('archived');
    for (const id of [first.id, second.id]) {
      const listing = (await ctx.send('GET', `/v1/listings/${id}`)).json();
      expect(listing.status).toBe('withdrawn');
      expect(listing.channels.every((c: { state: string }) => c.state === 'withdrawn')).toBe(true);
    }
    for (const channel of [website, portal]) {
      expect((await getChannel(channel.id)).json().live_listings).toBe(0);
      const feed = await ctx.app.inject({ method: 'GET', url: feedPathOf(channel.feed_url) });
      expect(feed.statusCode).toBe(200);
      expect(feed.body).not.toContain(first.id);
      expect(feed.body).not.toContain(second.id);
    }
    expect(
      (await ctx.app.inject({ method: 'GET', url: `${feedPathOf(website.feed_url)}/${first.id}` })).statusCode,
    ).toBe(404);

    const again = await publish(first.id, [website.id]);
    expect(again.statusCode).toBe(409);
    expect((await ctx.send('GET', `/v1/listings/${first.id}`)).json().status).toBe('withdrawn');
  });
});
