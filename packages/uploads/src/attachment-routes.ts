import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, PageSchema, errorResponses } from '@platform/http';
import type { BlobStorage } from '@platform/storage';
import { CONTENT_TYPES } from './content-types.js';
import { sendDownload } from './download.js';
import { downloadResponses, multipartBody, multipartValidator, registerMultipart } from './routes.js';

/** What the routes call; `content` gives the stored file's row. */
export interface AttachmentRouteService {
  upload(request: FastifyRequest, accountId: string, parentId: string): Promise<unknown>;
  list(accountId: string, parentId: string, query: { limit: number; cursor?: string }): Promise<unknown>;
  get(accountId: string, parentId: string, id: string): Promise<unknown>;
  content(
    accountId: string,
    parentId: string,
    id: string,
  ): Promise<{ sha256: string; content_type: string; filename: string }>;
  update(accountId: string, parentId: string, id: string, patch: never): Promise<unknown>;
  remove(accountId: string, parentId: string, id: string): Promise<void>;
  /** A rendition's file (kinds with renditions only). */
  rendition?(
    accountId: string,
    parentId: string,
    id: string,
    variant: string,
  ): Promise<{ sha256: string; content_type: string; filename: string }>;
}

/** One kind of attachment's routes: its paths, scopes, schemas and texts (the operations are the same for every kind). */
export interface AttachmentRoutesOptions {
  /** e.g. `/properties/:propertyId/media`; the record's routes add `/:<idParam>`. */
  path: string;
  parentParam: string;
  idParam: string;
  scopes: { read: string; write: string };
  tags: string[];
  /** Operation ids of upload, list, get, download, update, delete. */
  operationIds: { upload: string; list: string; get: string; download: string; update: string; delete: string };
  /** The short text of each operation in the documentation ("Upload a medium"), next to its operationId. */
  summaries: { upload: string; list: string; get: string; download: string; update: string; delete: string };
  descriptions: { upload: string; file: string; list: string; update: string; delete: string };
  schemas: {
    collectionParams: TSchema;
    params: TSchema;
    fields: TObject;
    listQuery: TSchema;
    patch: TSchema;
    view: TSchema;
  };
  service: AttachmentRouteService;
  storage: BlobStorage;
  /** Changes and deletions may be refused (409) in a state of the parent (the definition's `frozen`). */
  changesMayConflict?: boolean;
  /** The download of a rendition (`<record>/renditions/:variant`), for kinds that have them; `params` includes `variant`. */
  renditions?: { operationId: string; summary: string; description: string; params: TSchema };
}

type Params = Record<string, string>;

/** Upload, list, get, download, update and delete of one kind of attachment, in the context given. */
export async function attachmentRoutes(app: FastifyInstance, o: AttachmentRoutesOptions): Promise<void> {
  await registerMultipart(app);
  const { read, write } = o.scopes;
  const tags = o.tags;
  const record = `${o.path}/:${o.idParam}`;
  const conflict = o.changesMayConflict ? [409] : [];
  const ids = (request: FastifyRequest) => {
    const params = request.params as Params;
    return [request.auth.accountId, params[o.parentParam], params[o.idParam]] as const;
  };

  app.post(
    o.path,
    {
      config: { scope: write },
      validatorCompiler: multipartValidator,
      schema: {
        tags,
        operationId: o.operationIds.upload,
        summary: o.summaries.upload,
        description: o.descriptions.upload,
        params: o.schemas.collectionParams,
        ...multipartBody(o.schemas.fields.properties, ['kind'], o.descriptions.file),
        response: { 201: o.schemas.view, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await o.service.upload(request, request.auth.accountId, (request.params as Params)[o.parentParam])),
  );

  app.get(
    o.path,
    {
      config: { scope: read },
      schema: {
        tags,
        operationId: o.operationIds.list,
        summary: o.summaries.list,
        description: o.descriptions.list,
        params: o.schemas.collectionParams,
        querystring: o.schemas.listQuery,
        response: { 200: PageSchema(o.schemas.view), ...errorResponses([...AUTH_ERRORS, 404, 422]) },
      },
    },
    async (request) =>
      o.service.list(
        request.auth.accountId,
        (request.params as Params)[o.parentParam],
        request.query as { limit: number; cursor?: string },
      ),
  );

  app.get(
    record,
    {
      config: { scope: read },
      schema: {
        tags,
        operationId: o.operationIds.get,
        summary: o.summaries.get,
        params: o.schemas.params,
        response: { 200: o.schemas.view, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => o.service.get(...ids(request)),
  );

  app.get(
    `${record}/content`,
    {
      config: { scope: read },
      schema: {
        tags,
        operationId: o.operationIds.download,
        summary: o.summaries.download,
        description: 'The file, streamed, with `ETag` (its sha256); `If-None-Match` with that ETag answers 304.',
        params: o.schemas.params,
        response: {
          ...downloadResponses('The file, in its `content_type`.', Object.keys(CONTENT_TYPES)),
          ...errorResponses([...AUTH_ERRORS, 404]),
        },
      },
    },
    async (request, reply) => {
      const row = await o.service.content(...ids(request));
      return sendDownload(request, reply, o.storage, {
        sha256: row.sha256,
        contentType: row.content_type,
        filename: row.filename,
        disposition: 'attachment',
      });
    },
  );

  if (o.renditions) {
    const rendition = o.service.rendition?.bind(o.service);
    if (!rendition) throw new Error('attachmentRoutes: `renditions` needs a service with `rendition`.');
    app.get(
      `${record}/renditions/:variant`,
      {
        config: { scope: read },
        schema: {
          tags,
          operationId: o.renditions.operationId,
          summary: o.renditions.summary,
          description: o.renditions.description,
          params: o.renditions.params,
          response: {
            ...downloadResponses('The rendition, a JPEG.', ['image/jpeg']),
            ...errorResponses([...AUTH_ERRORS, 404]),
          },
        },
      },
      async (request, reply) => {
        const row = await rendition(...ids(request), (request.params as Params).variant);
        return sendDownload(request, reply, o.storage, {
          sha256: row.sha256,
          contentType: row.content_type,
          filename: row.filename,
          disposition: 'inline',
        });
      },
    );
  }

  app.patch(
    record,
    {
      config: { scope: write },
      schema: {
        tags,
        operationId: o.operationIds.update,
        summary: o.summaries.update,
        description: o.descriptions.update,
        params: o.schemas.params,
        body: o.schemas.patch,
        response: { 200: o.schemas.view, ...errorResponses([...AUTH_ERRORS, 404, ...conflict, ...BODY_ERRORS]) },
      },
    },
    async (request) => o.service.update(...ids(request), request.body as never),
  );

  app.delete(
    record,
    {
      config: { scope: write },
      schema: {
        tags,
        operationId: o.operationIds.delete,
        summary: o.summaries.delete,
        description: o.descriptions.delete,
        params: o.schemas.params,
        response: {
          204: Type.Null({ description: 'Deleted.' }),
          ...errorResponses([...AUTH_ERRORS, 404, ...conflict]),
        },
      },
    },
    async (request, reply) => {
      await o.service.remove(...ids(request));
      return reply.status(204).send(null);
    },
  );
}
