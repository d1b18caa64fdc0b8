import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, PageSchema, errorResponses } from '@platform/http';
import type { BlobStorage } from '@platform/storage';
import { downloadResponses, sendDownload } from '@platform/uploads';
import {
  ListingListQuerySchema,
  ListingParamsSchema,
  ListingSchema,
  PropertyListingParamsSchema,
  PublishBodySchema,
  WithdrawBodySchema,
} from './schemas.js';
import type { ListingService } from './service.js';

const READ = 'listings:read';
const WRITE = 'listings:write';
const tags = ['Listings'];

export const listingRoutes: FastifyPluginAsync<{ listings: ListingService; storage: BlobStorage }> = async (
  plugin,
  { listings, storage },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/properties/:propertyId/listings',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'generateListing',
        summary: 'Generate a listing',
        description:
          'Copies the property and its media into a new listing (status `generating`) and renders its PDF exposé in the background: ' +
          '`completed` with `listing.completed`, or `failed` with a reason. Later changes of the property do not change the listing. ' +
          "An archived property: 409; no photo or no price (the exposé's title page): 422.",
        params: PropertyListingParamsSchema,
        response: { 202: ListingSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, 422]) },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await listings.create(request.auth.accountId, request.params.propertyId, request.log)),
  );

  app.get(
    '/listings',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listListings',
        summary: 'List listings',
        description:
          'Listings of the account, newest first, optionally of one property (`property_id`) or in one `status`.',
        querystring: ListingListQuerySchema,
        response: { 200: PageSchema(ListingSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => listings.list(request.auth.accountId, request.query),
  );

  app.get(
    '/listings/:listingId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getListing',
        summary: 'Get a listing',
        params: ListingParamsSchema,
        response: { 200: ListingSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => listings.get(request.auth.accountId, request.params.listingId),
  );

  app.get(
    '/listings/:listingId/pdf',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'downloadListingPdf',
        summary: "Download a listing's PDF exposé",
        description: 'The PDF exposé, streamed, with `ETag`; 404 until the listing is `completed`.',
        params: ListingParamsSchema,
        response: {
          ...downloadResponses('The PDF exposé (`application/pdf`).', ['application/pdf']),
          ...errorResponses([...AUTH_ERRORS, 404]),
        },
      },
    },
    async (request, reply) => {
      const { listingId } = request.params;
      const { sha256 } = await listings.pdf(request.auth.accountId, listingId);
      return sendDownload(request, reply, storage, {
        sha256,
        contentType: 'application/pdf',
        filename: `expose-${listingId}.pdf`,
        disposition: 'inline',
      });
    },
  );

  app.post(
    '/listings/:listingId/publish',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'publishListing',
        summary: 'Publish a listing',
        description:
          'Publishes a `completed` listing on channels of the account. First the energy-certificate rule (GEG §87): every missing ' +
          'mandatory disclosure is one detail `{field, reason: "missing"}` of one 422 `validation_failed`, an expired certificate ' +
          "`out_of_range`. Then per channel: `live`, or `failed` with the channel's reason. `listing.published` when it went live.",
        params: ListingParamsSchema,
        body: PublishBodySchema,
        response: { 200: ListingSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => listings.publish(request.auth.accountId, request.params.listingId, request.body),
  );

  app.post(
    '/listings/:listingId/withdraw',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'withdrawListing',
        summary: 'Withdraw a listing',
        description:
          'Takes the listing off the given channels (every channel without `channels`); live nowhere any more: status `withdrawn`.',
        params: ListingParamsSchema,
        body: WithdrawBodySchema,
        response: { 200: ListingSchema, ...errorResponses([...AUTH_ERRORS, 404, ...BODY_ERRORS]) },
      },
    },
    async (request) => listings.withdraw(request.auth.accountId, request.params.listingId, request.body ?? {}),
  );
};
