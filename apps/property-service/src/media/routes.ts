import type { FastifyPluginAsync } from 'fastify';
import type { BlobStorage } from '@platform/storage';
import { attachmentRoutes } from '@platform/uploads';
import {
  MediaCollectionParamsSchema,
  MediaFieldsSchema,
  MediaListQuerySchema,
  MediaParamsSchema,
  MediaPatchSchema,
  MediaSchema,
  RenditionParamsSchema,
} from './schemas.js';
import type { MediaService } from './service.js';

/** `/properties/{propertyId}/media`: the attachment routes (packages/uploads) with the media's words. */
export const mediaRoutes: FastifyPluginAsync<{
  media: MediaService;
  storage: BlobStorage;
  maxBytes: number;
  maxPixels: number;
  maxMedia: number;
}> = async (app, { media, storage, maxBytes, maxPixels, maxMedia }) =>
  attachmentRoutes(app, {
    path: '/properties/:propertyId/media',
    changesMayConflict: true,
    parentParam: 'propertyId',
    idParam: 'mediaId',
    scopes: { read: 'properties:read', write: 'properties:write' },
    tags: ['Property media'],
    operationIds: {
      upload: 'uploadPropertyMedia',
      list: 'listPropertyMedia',
      get: 'getPropertyMedia',
      download: 'downloadPropertyMedia',
      update: 'updatePropertyMedia',
      delete: 'deletePropertyMedia',
    },
    summaries: {
      upload: 'Upload a medium of a property',
      list: "List a property's media",
      get: 'Get a medium of a property',
      download: 'Download a medium of a property',
      update: 'Update a medium of a property',
      delete: 'Delete a medium of a property',
    },
    descriptions: {
      upload:
        `Uploads a photo, floor plan or document as \`multipart/form-data\` (the file in the part \`file\`, at most ${maxBytes} bytes: 413 otherwise). ` +
        'The type is judged from the bytes: photo JPEG, PNG or WebP; floor_plan also PDF; document PDF; anything else, or bytes that disagree ' +
        'with the declared type, is 422 (`file`, `not_allowed`). The content is then decoded in full, apart from the service: an image of more than ' +
        `${maxPixels} pixels (width × height) is 422 (\`file\`, \`out_of_range\`) before any decoding; one that cannot be decoded (damaged, truncated, not what ` +
        'its signature says) is 422 (`file`, `invalid_format`), as is a PDF that cannot be parsed or is encrypted; one whose decoding needs more memory or ' +
        'time than allowed, a PDF with more than 500 pages or 200000 objects, and a floor-plan PDF of more than one page are 422 (`file`, `out_of_range`); ' +
        'the message says which limit. Photos and floor plans get `renditions` (JPEGs made from the decoded pixels, orientation applied, without ' +
        `any metadata): only those are ever published. A property has at most ${maxMedia} media: one more is 422 (\`media\`, \`out_of_range\`). ` +
        'An archived property is 409. Emits `property.updated` with `changed_fields: ["media"]`.',
      file: 'The file: JPEG, PNG, WebP or PDF.',
      list: 'The media of a property in their order (`position`).',
      update:
        "Changes the title or the position; the media in between move, so positions stay 0, 1, 2, ... An archived property's media: 409.",
      delete:
        'Deletes the media (the later ones move up) and its file, unless another record has the same content. Emits `property.updated`. ' +
        "An archived property's media: 409.",
    },
    schemas: {
      collectionParams: MediaCollectionParamsSchema,
      params: MediaParamsSchema,
      fields: MediaFieldsSchema,
      listQuery: MediaListQuerySchema,
      patch: MediaPatchSchema,
      view: MediaSchema,
    },
    renditions: {
      operationId: 'downloadPropertyMediaRendition',
      summary: 'Download a rendition of a medium',
      description:
        'A rendition of a photo or floor plan, as feeds, portal exports and exposés publish it: a JPEG made from the decoded pixels ' +
        '(`large`: long edge at most 1920 px, `thumbnail`: 640 px), without EXIF, XMP, IPTC, ICC profile or comments. A document has none (404).',
      params: RenditionParamsSchema,
    },
    service: media,
    storage,
  });
