import { TEST_PUBLIC_BASE_URL, startTestApp, until, type TestApp } from '@platform/testkit';
import { jpeg } from '@platform/uploads/testing';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';
import { GENERATE_LISTING_JOB } from '../src/listings/index.js';
import { photoParts, uploadMedia } from './media-helpers.js';

export type PropertyTestContext = TestApp;

/** The property app on its own database, with two tenants holding every scope. */
export const startPropertyApp = (options: { allowPrivateTargets?: boolean } = {}) =>
  startTestApp(propertyDescriptor, buildPropertyApp, options);

export const validProperty = () => ({
  type: 'apartment',
  title: 'Bright two-room flat near the park',
  address: { street: 'Parkstraße 5', postal_code: '10115', city: 'Berlin' },
  living_area_sqm: 64.5,
  rooms: 2,
  purchase_price_eur: 420000,
});

/** A complete energy certificate of an apartment (GEG §87), valid until 2031. */
export const energyCertificate = () => ({
  type: 'demand',
  final_energy_demand_kwh: 85.5,
  energy_source: 'Fernwärme',
  efficiency_class: 'C',
  valid_until: '2031-05-01',
});

/** A property ready for an exposé and for publication (photos, price, energy certificate); resolves to its id. */
export async function propertyWithPhotos(
  ctx: PropertyTestContext,
  overrides: Record<string, unknown> = {},
  key = ctx.tenant.key,
  photos = 1,
): Promise<string> {
  const res = await ctx.send(
    'POST',
    '/v1/properties',
    { ...validProperty(), year_built: 1998, energy_certificate: energyCertificate(), ...overrides },
    key,
  );
  if (res.statusCode !== 201) throw new Error(`property not created: ${res.statusCode} ${res.body}`);
  const id = res.json().id as string;
  for (let i = 0; i < photos; i++) {
    const upload = await uploadMedia(
      ctx,
      id,
      photoParts(jpeg(40, 30, `${i}${id}`), [], 'image/jpeg', 'photo.jpg'),
      key,
    );
    if (upload.statusCode !== 201) throw new Error(`photo not uploaded: ${upload.statusCode} ${upload.body}`);
  }
  return id;
}

/** Starts a listing of the property (202 `generating`); resolves to the listing as answered. */
export async function startListing(ctx: PropertyTestContext, propertyId: string, key = ctx.tenant.key) {
  const res = await ctx.send('POST', `/v1/properties/${propertyId}/listings`, undefined, key);
  if (res.statusCode !== 202) throw new Error(`listing not started: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; status: string } & Record<string, unknown>;
}

/** Runs the `generate-listing` job of the listing now, as the worker would (no worker needed). */
export const runGeneration = (ctx: PropertyTestContext, listingId: string) =>
  GENERATE_LISTING_JOB.run(
    { db: ctx.db.prisma, now: ctx.clock.now, storage: ctx.storage, sandbox: ctx.sandbox, jobs: ctx.jobs },
    { listing_id: listingId },
  );

/** Waits until the listing is no longer `generating` (a job worker must run); resolves to it. */
export function settledListing(ctx: PropertyTestContext, listingId: string, key = ctx.tenant.key) {
  return until(async () => {
    const listing = (await ctx.send('GET', `/v1/listings/${listingId}`, undefined, key)).json();
    return listing.status === 'generating' ? undefined : listing;
  }, 20_000);
}

/** A listing of the property generated to `completed` by running its job here. */
export async function completedListing(ctx: PropertyTestContext, propertyId: string, key = ctx.tenant.key) {
  const { id } = await startListing(ctx, propertyId, key);
  await runGeneration(ctx, id);
  const listing = (await ctx.send('GET', `/v1/listings/${id}`, undefined, key)).json();
  if (listing.status !== 'completed') throw new Error(`listing ${id} is ${listing.status}: ${listing.failure_reason}`);
  return listing;
}

let channelNumber = 0;

/** The agency contact an OpenImmo channel needs (a portal shows it with every listing). */
export const AGENCY_CONTACT = {
  name: 'Vertriebsteam Mitte',
  company: 'Muster Immobilien GmbH',
  email: 'vertrieb@muster-immobilien.example',
  phone: '+49 30 1234567',
};

/** Creates a channel of the type (a fresh name unless given; an openimmo one with the agency contact); resolves to the channel. */
export async function createChannel(
  ctx: PropertyTestContext,
  type: 'website' | 'openimmo',
  name = `${type} ${++channelNumber}`,
  key = ctx.tenant.key,
) {
  const res = await ctx.send(
    'POST',
    '/v1/channels',
    { type, name, ...(type === 'openimmo' ? { contact: AGENCY_CONTACT } : {}) },
    key,
  );
  if (res.statusCode !== 201) throw new Error(`channel not created: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; type: string; name: string; feed_url: string; live_listings: number };
}

/** The path of a channel's feed URL below the public base. */
export const feedPathOf = (feedUrl: string) => feedUrl.slice(TEST_PUBLIC_BASE_URL.length);

/** A property of the key's account put on the market (viewable); resolves to its id. */
export async function activeProperty(
  ctx: PropertyTestContext,
  key = ctx.tenant.key,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const res = await ctx.send('POST', '/v1/properties', { ...validProperty(), ...overrides }, key);
  if (res.statusCode !== 201) throw new Error(`property not created: ${res.statusCode} ${res.body}`);
  const id = res.json().id as string;
  const activated = await ctx.send('POST', `/v1/properties/${id}/activate`, undefined, key);
  if (activated.statusCode !== 200)
    throw new Error(`property not activated: ${activated.statusCode} ${activated.body}`);
  return id;
}

let prospectNumber = 0;

/** An inquiry for the property, by an existing prospect or a new one; resolves to its id and its prospect's. */
export async function createInquiry(
  ctx: PropertyTestContext,
  propertyId: string,
  options: { prospectId?: string; key?: string } = {},
) {
  const n = ++prospectNumber;
  const who = options.prospectId
    ? { interessent_id: options.prospectId }
    : {
        interessent: {
          nachname: `Interessent${n}`,
          email: `interessent${n}@example.de`,
          einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-01-01T10:00:00Z' },
          suchprofil: { typ: ['apartment'] },
        },
      };
  const res = await ctx.send(
    'POST',
    '/leads/v1/anfragen',
    { immobilie_id: propertyId, ...who },
    options.key ?? ctx.tenant.key,
  );
  if (res.statusCode !== 201) throw new Error(`inquiry not created: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { id: body.id as string, prospectId: body.interessent_id as string };
}

/** The `data` of the outbox events of the type, oldest first. */
export async function eventData(ctx: PropertyTestContext, type: string): Promise<Record<string, unknown>[]> {
  const events = await ctx.db.prisma.outboxEvent.findMany({
    where: { type },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
  return events.map((event) => JSON.parse(event.payload).data as Record<string, unknown>);
}
