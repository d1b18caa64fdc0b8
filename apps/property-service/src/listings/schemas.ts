import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';
import { PropertySchema } from '../properties/index.js';
import { CHANNEL_TYPES } from '../channels/index.js';

export const LISTING_STATUSES = ['generating', 'completed', 'failed', 'published', 'withdrawn'] as const;
export const PUBLICATION_STATES = ['pending', 'live', 'failed', 'withdrawn'] as const;

const ListingMediaSchema = Type.Object({
  id: Type.String({ description: 'The medium it was copied from (it may since have been changed or deleted).' }),
  kind: StringEnum(['photo', 'floor_plan', 'document'], {
    description: 'Photos and floor plans only: documents are never published.',
  }),
  title: Nullable(Type.String()),
  position: Type.Integer(),
  content_type: Type.String({ description: 'Of the published rendition: `image/jpeg`.' }),
  size: Type.Integer({ description: 'Bytes of the published rendition.' }),
  sha256: Type.String({
    description:
      'Of the published rendition (`large`, long edge at most 1920 px): a JPEG made from the decoded pixels at upload, orientation applied, without any metadata of the original.',
  }),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  thumbnail: Nullable(
    Type.Object(
      { size: Type.Integer(), sha256: Type.String(), width: Type.Integer(), height: Type.Integer() },
      { description: 'The `thumbnail` rendition (long edge at most 640 px).' },
    ),
  ),
  published: Type.Boolean({
    description:
      'False only in listings generated before renditions existed: the medium is the uploaded file itself and is never published; generate a new listing.',
  }),
});

export const ListingPublicationSchema = Type.Object({
  channel_id: Type.String(),
  channel_name: Type.String(),
  channel_type: StringEnum(CHANNEL_TYPES),
  state: StringEnum(PUBLICATION_STATES, {
    description: '`pending` → `live` or `failed` (with `reason`); `withdrawn` when taken off.',
  }),
  reason: Nullable(Type.String()),
  live_at: Nullable(Type.String({ format: 'date-time' })),
  withdrawn_at: Nullable(Type.String({ format: 'date-time' })),
});

export const ListingSchema = Named(
  'Listing',
  Type.Object(
    {
      id: Type.String(),
      property_id: Type.String(),
      status: StringEnum(LISTING_STATUSES, {
        description:
          '`generating` → `completed` (the PDF is ready) or `failed` (see `failure_reason`); `published` while live on at least one channel; `withdrawn` once taken off every channel.',
      }),
      property: Type.Omit(PropertySchema, ['status', 'transaction', 'media_count', 'created_at', 'updated_at'], {
        title: 'PropertySnapshot',
        description:
          'The property as it was when the listing was generated; later updates of the property do not change it.',
      }),
      media: Type.Array(ListingMediaSchema, {
        description: 'The media as they were, in position order (the first photo is the cover).',
      }),
      pdf_url: Type.String({ description: 'Where the PDF exposé is downloaded (once `completed`).' }),
      pdf: Nullable(
        Type.Object({
          size: Type.Integer({ description: 'Bytes.' }),
          sha256: Type.String({ description: 'The download ETag.' }),
        }),
      ),
      failure_reason: Nullable(Type.String()),
      channels: Type.Array(ListingPublicationSchema, {
        description: 'Where the listing was published and its state there.',
      }),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
      completed_at: Nullable(Type.String({ format: 'date-time' })),
      published_at: Nullable(Type.String({ format: 'date-time', description: 'When it first went live.' })),
    },
    { description: 'A generated listing: a snapshot of the property with its PDF exposé.' },
  ),
);
export type Listing = Static<typeof ListingSchema>;

export const ListingParamsSchema = Type.Object({ listingId: Type.String() });
export const PropertyListingParamsSchema = Type.Object({ propertyId: Type.String() });

export const ListingListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({
    property_id: Type.Optional(Type.String({ maxLength: 64 })),
    status: Type.Optional(StringEnum(LISTING_STATUSES)),
  }),
]);

export const PublishBodySchema = Named(
  'ListingPublish',
  Type.Object(
    {
      channels: Type.Array(Type.String({ maxLength: 64 }), {
        minItems: 1,
        maxItems: 20,
        uniqueItems: true,
        description: "Ids of the account's channels.",
      }),
    },
    { additionalProperties: false },
  ),
);
export type PublishBody = Static<typeof PublishBodySchema>;

export const WithdrawBodySchema = Named(
  'ListingWithdraw',
  Nullable(
    Type.Object(
      {
        channels: Type.Optional(
          Type.Array(Type.String({ maxLength: 64 }), {
            minItems: 1,
            maxItems: 20,
            uniqueItems: true,
            description: 'Channel ids; absent: every channel.',
          }),
        ),
      },
      { additionalProperties: false, description: 'No body: off every channel.' },
    ),
  ),
);
export type WithdrawBody = NonNullable<Static<typeof WithdrawBodySchema>>;
