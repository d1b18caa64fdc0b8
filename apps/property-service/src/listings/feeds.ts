import { createHash } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '@platform/db';
import { errorResponses, notFound } from '@platform/http';
import type { BlobStorage } from '@platform/storage';
import { downloadResponses, etagMatches, sendDownload } from '@platform/uploads';
import { contactOf, feedPath, type ChannelRow } from '../channels/index.js';
import { CHANNEL_ADAPTERS, type FeedContext, type LiveListing } from './channel-adapters.js';

/** A feed answers in its channel's format: JSON for a website channel, OpenImmo XML for an openimmo one. */
const FEED_CONTENT = {
  'application/json': { schema: Type.Object({}, { additionalProperties: true, description: 'A website channel: the listings as JSON.' }) },
  'application/xml': { schema: Type.String({ description: 'An openimmo channel: an OpenImmo 1.2.7 document.' }) },
};
import { PUBLISHED_VARIANTS, snapshotOf } from './mapping.js';
import { LISTING_PARTS } from './repository.js';

/** How long a built feed is served from memory (and may be cached by its readers). */
export const FEED_CACHE_SECONDS = 30;
const MAX_CACHED_FEEDS = 1000;

const tags = ['Public feeds'];
const Token = Type.String({ pattern: '^[A-Za-z0-9_-]{20,64}$', description: 'The channel\'s feed token (from its `feed_url`).' });
const FeedParams = Type.Object({ feedToken: Token });
const ListingParams = Type.Object({ feedToken: Token, listingId: Type.String({ maxLength: 64 }) });
const MediaParams = Type.Object({ feedToken: Token, sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) });
const feedNotFound = () => notFound('No feed with this token.');

interface Built {
  body: string;
  etag: string;
  contentType: string;
  expires: number;
}

/**
 * The channels' public feeds, read without a key (the token in the URL is the secret): the live
 * listings only, the address at its precision, nothing personal; built feeds are kept for
 * `FEED_CACHE_SECONDS` and answered with `ETag` / 304 and `Cache-Control`.
 */
export const feedRoutes: FastifyPluginAsync<{ db: Db; storage: BlobStorage; publicBaseUrl: string; now: () => Date }> = async (plugin, { db, storage, publicBaseUrl, now }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const cache = new Map<string, Built>();
  // The service-wide onSend hook marks every answer `no-store`; this plugin's own hook runs after it
  // and gives the built feeds (200 and 304) their public lifetime back.
  const cacheable = new WeakSet<FastifyReply>();
  const cacheControl = `public, max-age=${FEED_CACHE_SECONDS}`;
  plugin.addHook('onSend', async (_request, reply) => {
    if (cacheable.has(reply) && (reply.statusCode === 200 || reply.statusCode === 304)) reply.header('cache-control', cacheControl);
  });
  // A token, listing id or content address that cannot exist is answered like a missing one (404),
  // not as invalid input: the routes declare 400 and 404 only.
  plugin.addHook('preHandler', async (request) => {
    if (request.validationError) throw feedNotFound();
  });

  async function channelOf(token: string) {
    const channel = await db.channel.findUnique({ where: { feed_token: token }, include: { account: { select: { name: true } } } });
    if (!channel) throw feedNotFound();
    return channel;
  }

  async function liveListings(channel: ChannelRow, listingId?: string): Promise<LiveListing[]> {
    const rows = await db.listing.findMany({
      where: { account_id: channel.account_id, ...(listingId ? { id: listingId } : {}), publications: { some: { channel_id: channel.id, state: 'live' } } },
      include: LISTING_PARTS,
      orderBy: [{ published_at: 'desc' }, { id: 'desc' }],
    });
    return rows.map((row) => ({ id: row.id, snapshot: snapshotOf(row) }));
  }

  const context = (channel: ChannelRow & { account: { name: string } }): FeedContext => ({
    feedBase: `${publicBaseUrl}${feedPath(channel.feed_token).replace(/\/listings$/, '')}`,
    accountId: channel.account_id,
    accountName: channel.account.name,
    contact: contactOf(channel),
    generatedAt: now().toISOString(),
  });

  async function answer(request: FastifyRequest, reply: FastifyReply, key: string, build: () => Promise<{ body: string; contentType: string }>) {
    // The injected clock, as everywhere time decides something (tests move it past the lifetime).
    const at = now().getTime();
    let built = cache.get(key);
    if (!built || built.expires < at) {
      const { body, contentType } = await build();
      built = { body, contentType, etag: `"${createHash('sha256').update(body).digest('hex')}"`, expires: at + FEED_CACHE_SECONDS * 1000 };
      if (cache.size >= MAX_CACHED_FEEDS) cache.delete(cache.keys().next().value!);
      cache.set(key, built);
    }
    cacheable.add(reply);
    reply.header('etag', built.etag).header('cache-control', cacheControl);
    if (etagMatches(request.headers['if-none-match'], built.etag)) return reply.status(304).send();
    return reply.type(built.contentType).send(built.body);
  }

  app.get(
    '/feeds/:feedToken/listings',
    {
      attachValidation: true,
      schema: {
        tags,
        security: [],
        operationId: 'readFeed',
        description: 'Every listing live on the channel: JSON for a `website` channel, an OpenImmo 1.2.7 document for an `openimmo` channel. No key.',
        params: FeedParams,
        response: { 200: { description: 'The feed.', content: FEED_CONTENT }, 304: Type.Null({ description: 'Not modified.' }), ...errorResponses([400, 404]) },
      },
    },
    async (request, reply) =>
      answer(request, reply, `feed:${request.params.feedToken}`, async () => {
        const channel = await channelOf(request.params.feedToken);
        const adapter = CHANNEL_ADAPTERS[channel.type];
        return { body: adapter.feed(await liveListings(channel), context(channel)), contentType: adapter.contentType };
      }),
  );

  app.get(
    '/feeds/:feedToken/listings/:listingId',
    {
      attachValidation: true,
      schema: {
        tags,
        security: [],
        operationId: 'readFeedListing',
        description: 'One listing live on the channel, in the channel\'s format. No key.',
        params: ListingParams,
        response: { 200: { description: 'The listing.', content: FEED_CONTENT }, 304: Type.Null({ description: 'Not modified.' }), ...errorResponses([400, 404]) },
      },
    },
    async (request, reply) =>
      answer(request, reply, `item:${request.params.feedToken}:${request.params.listingId}`, async () => {
        const channel = await channelOf(request.params.feedToken);
        const [listing] = await liveListings(channel, request.params.listingId);
        if (!listing) throw notFound('No live listing with this id on this feed.');
        const adapter = CHANNEL_ADAPTERS[channel.type];
        return { body: adapter.item(listing, context(channel)), contentType: adapter.contentType };
      }),
  );

  app.get(
    '/feeds/:feedToken/listings/:listingId/pdf',
    {
      attachValidation: true,
      schema: {
        tags,
        security: [],
        operationId: 'readFeedListingPdf',
        description: 'The PDF exposé of a listing live on the channel. No key.',
        params: ListingParams,
        response: { ...downloadResponses('The PDF exposé.', ['application/pdf']), 304: Type.Null({ description: 'Not modified.' }), ...errorResponses([400, 404]) },
      },
    },
    async (request, reply) => {
      const channel = await channelOf(request.params.feedToken);
      const listing = await db.listing.findFirst({
        where: { id: request.params.listingId, account_id: channel.account_id, publications: { some: { channel_id: channel.id, state: 'live' } } },
        select: { sha256: true },
      });
      if (!listing?.sha256) throw notFound('No live listing with this id on this feed.');
      return sendDownload(request, reply, storage, { sha256: listing.sha256, contentType: 'application/pdf', filename: `expose-${request.params.listingId}.pdf`, disposition: 'inline' });
    },
  );

  app.get(
    '/feeds/:feedToken/media/:sha256',
    {
      attachValidation: true,
      schema: {
        tags,
        security: [],
        operationId: 'readFeedMedium',
        description:
          'A photo or floor plan of a listing live on the channel, as it was when the listing was generated: one of its renditions, a JPEG made ' +
          'from the decoded pixels at upload, without any metadata of the uploaded file (which is never published). No key. ' +
          'It is always `image/jpeg`; the other types stay in this document because a version never drops a media type it once listed.',
        params: MediaParams,
        response: {
          ...downloadResponses('The rendition, a JPEG.', ['image/jpeg', 'image/png', 'image/webp', 'application/pdf']),
          304: Type.Null({ description: 'Not modified.' }),
          ...errorResponses([400, 404]),
        },
      },
    },
    async (request, reply) => {
      const channel = await channelOf(request.params.feedToken);
      const medium = await db.listingMedia.findFirst({
        where: {
          sha256: request.params.sha256,
          variant: { in: [...PUBLISHED_VARIANTS] }, // renditions only, never an `original` of an older listing
          listing: { account_id: channel.account_id, publications: { some: { channel_id: channel.id, state: 'live' } } },
        },
        select: { content_type: true, sha256: true, position: true },
      });
      if (!medium) throw notFound('No medium with this address on this feed.');
      const extension = medium.content_type.split('/')[1] ?? 'bin';
      return sendDownload(request, reply, storage, { sha256: medium.sha256, contentType: medium.content_type, filename: `${medium.sha256.slice(0, 12)}.${extension}`, disposition: 'inline' });
    },
  );
};
