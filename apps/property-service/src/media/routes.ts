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
} from './schemas.js';
import type { MediaService } from './service.js';

/** `/properties/{propertyId}/media`: the attachment routes (packages/uploads) with the media's words. */
export const mediaRoutes: FastifyPluginAsync<{ media: MediaService; storage: BlobStorage; maxBytes: number }> = async (app, { media, storage, maxBytes }) =>
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
    descriptions: {
      upload:
        `Uploads a photo, floor plan or document as \`multipart/form-data\` (the file in the part \`file\`, at most ${maxBytes} bytes: 413 otherwise). ` +
        'The type is judged from the bytes: photo JPEG, PNG or WebP; floor_plan also PDF; document PDF; anything else, or bytes that disagree ' +
        'with the declared type, is 422 (`file`, `not_allowed`). Images get `width` and `height`. An archived property is 409. ' +
        'Emits `property.updated` with `changed_fields: ["media"]`.',
      file: 'The file: JPEG, PNG, WebP or PDF.',
      list: 'The media of a property in their order (`position`).',
      update: 'Changes the title or the position; the media in between move, so positions stay 0, 1, 2, ... An archived property\'s media: 409.',
      delete:
        'Deletes the media (the later ones move up) and its file, unless another record has the same content. Emits `property.updated`. ' +
        'An archived property\'s media: 409.',
    },
    schemas: {
      collectionParams: MediaCollectionParamsSchema,
      params: MediaParamsSchema,
      fields: MediaFieldsSchema,
      listQuery: MediaListQuerySchema,
      patch: MediaPatchSchema,
      view: MediaSchema,
    },
    service: media,
    storage,
  });
