import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, PageSchema, errorResponses } from '@platform/http';
import type { BlobStorage } from '@platform/storage';
import { downloadResponses, multipartBody, multipartValidator, registerMultipart, sendDownload } from '@platform/uploads';
import {
  MediaCollectionParamsSchema,
  MediaFieldsSchema,
  MediaListQuerySchema,
  MediaParamsSchema,
  MediaPatchSchema,
  MediaSchema,
} from './schemas.js';
import type { MediaService } from './service.js';

const READ = 'properties:read';
const WRITE = 'properties:write';
const tags = ['Property media'];

export const mediaRoutes: FastifyPluginAsync<{ media: MediaService; storage: BlobStorage; maxBytes: number }> = async (plugin, { media, storage, maxBytes }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  await registerMultipart(app);

  app.post(
    '/properties/:propertyId/media',
    {
      config: { scope: WRITE },
      validatorCompiler: multipartValidator,
      schema: {
        tags,
        operationId: 'uploadPropertyMedia',
        description:
          `Uploads a photo, floor plan or document as \`multipart/form-data\` (the file in the part \`file\`, at most ${maxBytes} bytes: 413 otherwise). ` +
          'The type is judged from the bytes: photo JPEG, PNG or WebP; floor_plan also PDF; document PDF; anything else, or bytes that disagree ' +
          'with the declared type, is 422 (`file`, `not_allowed`). Images get `width` and `height`. An archived property is 409. ' +
          'Emits `property.updated` with `changed_fields: ["media"]`.',
        params: MediaCollectionParamsSchema,
        ...multipartBody(MediaFieldsSchema.properties, ['kind'], 'The file: JPEG, PNG, WebP or PDF.'),
        response: { 201: MediaSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => reply.status(201).send(await media.upload(request, request.auth.accountId, request.params.propertyId)),
  );

  app.get(
    '/properties/:propertyId/media',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listPropertyMedia',
        description: 'The media of a property in their order (`position`).',
        params: MediaCollectionParamsSchema,
        querystring: MediaListQuerySchema,
        response: { 200: PageSchema(MediaSchema), ...errorResponses([...AUTH_ERRORS, 404, 422]) },
      },
    },
    async (request) => media.list(request.auth.accountId, request.params.propertyId, request.query),
  );

  app.get(
    '/properties/:propertyId/media/:mediaId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getPropertyMedia',
        params: MediaParamsSchema,
        response: { 200: MediaSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => media.get(request.auth.accountId, request.params.propertyId, request.params.mediaId),
  );

  app.get(
    '/properties/:propertyId/media/:mediaId/content',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'downloadPropertyMedia',
        description: 'The file, streamed, with `ETag` (its sha256); `If-None-Match` with that ETag answers 304.',
        params: MediaParamsSchema,
        response: { ...downloadResponses('The file, in its `content_type`.'), ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request, reply) => {
      const row = await media.content(request.auth.accountId, request.params.propertyId, request.params.mediaId);
      return sendDownload(request, reply, storage, { sha256: row.sha256, contentType: row.content_type, filename: row.filename, disposition: 'attachment' });
    },
  );

  app.patch(
    '/properties/:propertyId/media/:mediaId',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'updatePropertyMedia',
        description: 'Changes the title or the position; the media in between move, so positions stay 0, 1, 2, ...',
        params: MediaParamsSchema,
        body: MediaPatchSchema,
        response: { 200: MediaSchema, ...errorResponses([...AUTH_ERRORS, 404, ...BODY_ERRORS]) },
      },
    },
    async (request) => media.update(request.auth.accountId, request.params.propertyId, request.params.mediaId, request.body),
  );

  app.delete(
    '/properties/:propertyId/media/:mediaId',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'deletePropertyMedia',
        description: 'Deletes the media (the later ones move up) and its file, unless another record has the same content. Emits `property.updated`.',
        params: MediaParamsSchema,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request, reply) => {
      await media.remove(request.auth.accountId, request.params.propertyId, request.params.mediaId);
      return reply.status(204).send(null);
    },
  );
};
