import { createHash } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { accountName } from '@platform/accounts';
import type { Db } from '@platform/db';
import { errorResponses, notFound } from '@platform/http';
import type { BlobStorage } from '@platform/storage';
import { downloadResponses, etagMatches, sendDownload } from '@platform/uploads';
import { channelRepository, contactOf, feedPath, type ChannelRow } from '../channels/index.js';
import { CHANNEL_ADAPTERS, type FeedContext, type LiveListing } from './channel-adapters.js';
import { FeedCache } from './feed-cache.js';
import { limitFeeds, type FeedRateLimits } from './feed-limits.js';
import { listingRepository, PUBLISHED_VARIANTS, snapshotOf } from '../listings/index.js';

/** A feed answers in its channel's format: JSON for a website channel, OpenImmo XML for an openimmo one. */
const FEED_CONTENT = {
  'application/json': {
    schema: Type.Object({}, { additionalProperties: true, description: 'A website channel: the listings as JSON.' }),
  },
  'application/xml': { schema: Type.String({ description: 'An openimmo channel: an OpenImmo 1.2.7 document.' }) },
};

/** How long a built feed is served from memory (and may be cached by its readers). */
export const FEED_CACHE_SECONDS = 30;
/** The bytes a process keeps of built feeds unless configured (`FEED_CACHE_MB`). */
export const FEED_CACHE_MAX_BYTES = 32 * 1024 * 1024;

const tags = ['Public feeds'];
const Token = Type.String({
  pattern: '^[A-Za-z0-9_-]{20,64}$',
  description: "The channel's feed token (from its `feed_url`).",
});
const FeedParams = Type.Object({ feedToken: Token });
const ListingParams = Type.Object({ feedToken: Token, listingId: Type.String({ maxLength: 64 }) });
const MediaParams = Type.Object({ feedToken: Token, sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) });
const feedNotFound = () => notFound('No feed with this token.');
/** The errors of every feed route: an unknown (or rotated) token is a 404, a spent budget a 429. */
const FEED_ERRORS = {
  ...errorResponses([400, 404, 429]),
  429: {
    ...errorResponses([429])[429],
    description:
      'Too many requests to this feed token, or from this client address, in this minute; retry after `Retry-After` seconds.',
  },
};

export interface FeedRouteOptions {
  db: Db;
  storage: BlobStorage;
  publicBaseUrl: string;
  now: () => Date;
  /** The bytes of built feeds kept in memory (default `FEED_CACHE_MAX_BYTES`). */
  cacheMaxBytes?: number;
  /** Budgets per token and per client address; unset: not limited (no Redis). */
  limits?: FeedRateLimits;
}

/**
 * The channels' public feeds, read without a key (the token in the URL is the secret): the live
 * listings only, the address at its precision, nothing personal; built feeds are kept for
 * `FEED_CACHE_SECONDS` and answered with `ETag` / 304 and `Cache-Control`. Every request looks its
 * token up first, so a rotated token (or a deleted channel) is refused at once on every instance,
 * and a cached feed is found only under the channel's current token.
 */
export const feedRoutes: FastifyPluginAsync<FeedRouteOptions> = async (
  plugin,
  { db, storage, publicBaseUrl, now, cacheMaxBytes, limits },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const cache = new FeedCache({
    maxBytes: cacheMaxBytes ?? FEED_CACHE_MAX_BYTES,
    ttlMs: FEED_CACHE_SECONDS * 1000,
    now: () => now().getTime(),
  });
  if (limits) limitFeeds(plugin, limits);
  // The service-wide onSend hook marks every answer `no-store`; this plugin's own hook runs after it
  // and gives the built feeds (200 and 304) their public lifetime back.
  const cacheable = new WeakSet<FastifyReply>();
  const cacheControl = `public, max-age=${FEED_CACHE_SECONDS}`;
  plugin.addHook('onSend', async (_request, reply) => {
    if (cacheable.has(reply) && (reply.statusCode === 200 || reply.statusCode === 304))
      reply.header('cache-control', cacheControl);
  });
  // A token, listing id or content address that cannot exist is answered like a missing one (404),
  // not as invalid input: the routes declare no 422.
  plugin.addHook('preHandler', async (request) => {
    if (request.validationError) throw feedNotFound();
  });

  /** Every request's one query: the channel of the token (its account's name is read only when a feed is built). */
  async function channelOf(token: string): Promise<ChannelRow> {
    const channel = await channelRepository.byFeedToken(db, token);
    if (!channel) throw feedNotFound();
    return channel;
  }
  /** Cached under the channel's current token and last change: a rotated token or a changed contact never finds an older feed. */
  const cacheKey = (channel: ChannelRow, part: string) =>
    `${channel.id}:${channel.updated_at.getTime()}:${channel.feed_token}:${part}`;

  async function liveListings(channel: ChannelRow, listingId?: string): Promise<LiveListing[]> {
    const rows = await listingRepository.liveOnChannel(db, channel, listingId);
    return rows.map((row) => ({ id: row.id, snapshot: snapshotOf(row) }));
  }

  /**
   * What a feed is built with. The agency's name is asked of @platform/accounts here, when a feed is
   * built (a cache miss), not with every request's channel: a cached feed keeps the name it was built
   * with for its lifetime, as before. No account: it was deleted with its channels just now.
   */
  async function context(channel: ChannelRow): Promise<FeedContext> {
    const name = await accountName(db, channel.account_id);
    if (name === undefined) throw feedNotFound();
    return {
      feedBase: `${publicBaseUrl}${feedPath(channel.feed_token).replace(/\/listings$/, '')}`,
      accountId: channel.account_id,
      accountName: name,
      contact: contactOf(channel),
      generatedAt: now().toISOString(),
    };
  }

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    build: () => Promise<{ body: string; contentType: string }>,
  ) {
    let built = cache.get(key);
    if (!built) {
      const { body, contentType } = await build();
      const bytes = Buffer.from(body, 'utf8');
      built = { body: bytes, contentType, etag: `"${createHash('sha256').update(bytes).digest('hex')}"` };
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
        summary: "Read a channel's feed",
        description:
          'Every listing live on the channel: JSON for a `website` channel, an OpenImmo 1.2.7 document for an `openimmo` channel. No key.',
        params: FeedParams,
        response: {
          200: { description: 'The feed.', content: FEED_CONTENT },
          304: Type.Null({ description: 'Not modified.' }),
          ...FEED_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const channel = await channelOf(request.params.feedToken);
      return answer(request, reply, cacheKey(channel, 'feed'), async () => {
        const adapter = CHANNEL_ADAPTERS[channel.type];
        const [listings, feedContext] = await Promise.all([liveListings(channel), context(channel)]);
        return { body: adapter.feed(listings, feedContext), contentType: adapter.contentType };
      });
    },
  );

  app.get(
    '/feeds/:feedToken/listings/:listingId',
    {
      attachValidation: true,
      schema: {
        tags,
        security: [],
        operationId: 'readFeedListing',
        summary: 'Read a listing of a feed',
        description: "One listing live on the channel, in the channel's format. No key.",
        params: ListingParams,
        response: {
          200: { description: 'The listing.', content: FEED_CONTENT },
          304: Type.Null({ description: 'Not modified.' }),
          ...FEED_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const channel = await channelOf(request.params.feedToken);
      return answer(request, reply, cacheKey(channel, `item:${request.params.listingId}`), async () => {
        const [listing] = await liveListings(channel, request.params.listingId);
        if (!listing) throw notFound('No live listing with this id on this feed.');
        const adapter = CHANNEL_ADAPTERS[channel.type];
        return { body: adapter.item(listing, await context(channel)), contentType: adapter.contentType };
      });
    },
  );

  app.get(
    '/feeds/:feedToken/listings/:listingId/pdf',
    {
      attachValidation: true,
      schema: {
        tags,
        security: [],
        operationId: 'readFeedListingPdf',
        summary: "Download a feed listing's PDF exposé",
        description: 'The PDF exposé of a listing live on the channel. No key.',
        params: ListingParams,
        response: {
          ...downloadResponses('The PDF exposé.', ['application/pdf']),
          304: Type.Null({ description: 'Not modified.' }),
          ...FEED_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const channel = await channelOf(request.params.feedToken);
      const listing = await listingRepository.livePdf(db, channel, request.params.listingId);
      if (!listing?.sha256) throw notFound('No live listing with this id on this feed.');
      return sendDownload(request, reply, storage, {
        sha256: listing.sha256,
        contentType: 'application/pdf',
        filename: `expose-${request.params.listingId}.pdf`,
        disposition: 'inline',
      });
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
        summary: 'Download a medium of a feed',
        description:
          'A photo or floor plan of a listing live on the channel, as it was when the listing was generated: one of its renditions, a JPEG made ' +
          'from the decoded pixels at upload, without any metadata of the uploaded file (which is never published). No key. ' +
          'It is always `image/jpeg`; the other types stay in this document because a version never drops a media type it once listed.',
        params: MediaParams,
        response: {
          ...downloadResponses('The rendition, a JPEG.', ['image/jpeg', 'image/png', 'image/webp', 'application/pdf']),
          304: Type.Null({ description: 'Not modified.' }),
          ...FEED_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const channel = await channelOf(request.params.feedToken);
      // Renditions only, never an `original` of an older listing.
      const medium = await listingRepository.liveMedium(db, channel, request.params.sha256, PUBLISHED_VARIANTS);
      if (!medium) throw notFound('No medium with this address on this feed.');
      const extension = medium.content_type.split('/')[1] ?? 'bin';
      return sendDownload(request, reply, storage, {
        sha256: medium.sha256,
        contentType: medium.content_type,
        filename: `${medium.sha256.slice(0, 12)}.${extension}`,
        disposition: 'inline',
      });
    },
  );
};
