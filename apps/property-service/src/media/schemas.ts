import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PageQuerySchema, StringEnum } from '@platform/http';
import type { ContentType } from '@platform/uploads';

export const MEDIA_KINDS = ['photo', 'floor_plan', 'document'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** What each kind may be, judged from the bytes. */
export const ALLOWED_TYPES: Record<MediaKind, readonly ContentType[]> = {
  photo: ['image/jpeg', 'image/png', 'image/webp'],
  floor_plan: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'],
  document: ['application/pdf'],
};

/** Per-file limit by default: 20 MiB. */
export const MEDIA_MAX_BYTES = 20 * 1024 * 1024;

const Title = Type.String({ minLength: 1, maxLength: 200 });
const Position = Type.Integer({ minimum: 0, maximum: 100_000, description: 'Place in the order, from 0; a larger value appends.' });

/** The form fields next to the file. */
export const MediaFieldsSchema = Type.Object(
  {
    kind: StringEnum(MEDIA_KINDS, { description: 'photo: JPEG, PNG or WebP; floor_plan: those or PDF; document: PDF.' }),
    title: Type.Optional(Title),
    position: Type.Optional(Position),
  },
  { additionalProperties: false },
);
export type MediaFields = Static<typeof MediaFieldsSchema>;

export const MediaPatchSchema = Type.Object(
  { title: Type.Optional(Nullable(Title)), position: Type.Optional(Position) },
  { additionalProperties: false, description: 'Title (`null` clears it) and position; the other media move to keep positions 0, 1, 2, ...' },
);
export type MediaPatch = Static<typeof MediaPatchSchema>;

export const MediaSchema = Type.Object(
  {
    id: Type.String(),
    property_id: Type.String(),
    kind: StringEnum(MEDIA_KINDS),
    title: Nullable(Type.String()),
    position: Type.Integer({ description: 'Order in the exposé, from 0, without gaps.' }),
    content_type: Type.String({ description: 'Judged from the bytes.' }),
    size: Type.Integer({ description: 'Bytes.' }),
    sha256: Type.String({ description: 'Hex SHA-256 of the content; the download ETag.' }),
    filename: Type.String(),
    width: Nullable(Type.Integer({ description: 'Pixels (images).' })),
    height: Nullable(Type.Integer({ description: 'Pixels (images).' })),
    content_url: Type.String({ description: 'Where the content is downloaded.' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A photo, floor plan or document of a property.' },
);
export type Media = Static<typeof MediaSchema>;

export const MediaCollectionParamsSchema = Type.Object({ propertyId: Type.String() });
export const MediaParamsSchema = Type.Object({ propertyId: Type.String(), mediaId: Type.String() });
export const MediaListQuerySchema = PageQuerySchema;
