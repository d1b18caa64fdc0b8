import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';
import type { ContentRules, ContentType, PdfLimits, RenditionSpec } from '@platform/uploads';

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

/** Pixels an image may have by default (width × height): 40 megapixels. */
export const MEDIA_MAX_PIXELS = 40_000_000;

/** Media a property may have by default. */
export const MEDIA_MAX_PER_PROPERTY = 100;

/** What is published of a photo or floor plan: JPEGs made from its pixels, the large one for portals and the exposé's cover, the thumbnail for lists and the exposé's grid. */
export const RENDITION_VARIANTS = ['large', 'thumbnail'] as const;
export const [LARGE, THUMBNAIL] = RENDITION_VARIANTS;
export const RENDITIONS: readonly RenditionSpec[] = [
  { variant: LARGE, longEdge: 1920, quality: 82 },
  { variant: THUMBNAIL, longEdge: 640, quality: 80 },
];

/** A PDF (floor plan or document) is parsed within these; a floor plan is published as its one page. */
export const MEDIA_PDF_LIMITS: PdfLimits = { maxPages: 500, maxObjects: 200_000 };

/** What a medium's content must be: photos and floor plans are published, so renditions are made of them (a PDF's one page); a document is only checked. */
export function mediaContentRules(kind: MediaKind, limits: { maxPixels: number; timeoutMs: number }): ContentRules {
  return { ...limits, pdf: MEDIA_PDF_LIMITS, renditions: kind === 'document' ? [] : RENDITIONS, maxRenderedPages: 1 };
}

const Title = Type.String({ minLength: 1, maxLength: 200 });
const Position = Type.Integer({
  minimum: 0,
  maximum: 100_000,
  description: 'Place in the order, from 0; a larger value appends.',
});

/** The form fields next to the file. */
export const MediaFieldsSchema = Type.Object(
  {
    kind: StringEnum(MEDIA_KINDS, {
      description: 'photo: JPEG, PNG or WebP; floor_plan: those or PDF; document: PDF.',
    }),
    title: Type.Optional(Title),
    position: Type.Optional(Position),
  },
  { additionalProperties: false },
);
export type MediaFields = Static<typeof MediaFieldsSchema>;

export const MediaPatchSchema = Named(
  'MediaUpdate',
  Type.Object(
    { title: Type.Optional(Nullable(Title)), position: Type.Optional(Position) },
    {
      additionalProperties: false,
      description: 'Title (`null` clears it) and position; the other media move to keep positions 0, 1, 2, ...',
    },
  ),
);
export type MediaPatch = Static<typeof MediaPatchSchema>;

export const RenditionSchema = Type.Object(
  {
    variant: StringEnum(RENDITION_VARIANTS, {
      description: '`large`: long edge at most 1920 px; `thumbnail`: 640 px.',
    }),
    content_type: Type.Literal('image/jpeg'),
    size: Type.Integer({ description: 'Bytes.' }),
    sha256: Type.String({ description: 'Hex SHA-256; the download ETag.' }),
    width: Type.Integer({ description: 'Pixels.' }),
    height: Type.Integer({ description: 'Pixels.' }),
    content_url: Type.String({ description: 'Where the rendition is downloaded.' }),
  },
  { description: 'A published form of the medium: a JPEG made from its decoded pixels, without any of its metadata.' },
);
export type Rendition = Static<typeof RenditionSchema>;

export const MediaSchema = Named(
  'Media',
  Type.Object(
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
      width: Nullable(Type.Integer({ description: 'Pixels of an image as displayed (after its EXIF orientation).' })),
      height: Nullable(Type.Integer({ description: 'Pixels of an image as displayed (after its EXIF orientation).' })),
      content_url: Type.String({
        description: 'Where the content is downloaded: the file as uploaded, with a key only (never published).',
      }),
      renditions: Type.Array(RenditionSchema, {
        description:
          'What is published of a photo or floor plan (feeds, portal exports, exposés): `large` and `thumbnail`. Empty for a document, which is never published, ' +
          'and, until the `make-media-renditions` job has run, for a medium stored before renditions were made at upload.',
      }),
      rendition_failure: Nullable(
        Type.String({
          description:
            'Why no renditions could be made of a medium stored before they were made at upload: it is never published. Null otherwise.',
        }),
      ),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    },
    { description: 'A photo, floor plan or document of a property.' },
  ),
);
export type Media = Static<typeof MediaSchema>;

export const MediaCollectionParamsSchema = Type.Object({ propertyId: Type.String() });
export const MediaParamsSchema = Type.Object({ propertyId: Type.String(), mediaId: Type.String() });
export const RenditionParamsSchema = Type.Object({
  propertyId: Type.String(),
  mediaId: Type.String(),
  // A plain string: a variant that does not exist is answered like a missing record (404).
  variant: Type.String({ description: '`large` or `thumbnail`.' }),
});
export const MediaListQuerySchema = PageQuerySchema;
