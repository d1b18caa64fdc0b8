import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, PageSchema, errorResponses } from '@platform/http';
import type { BlobStorage } from '@platform/storage';
import { downloadResponses, multipartBody, multipartValidator, registerMultipart, sendDownload } from '@platform/uploads';
import {
  ArtifactCollectionParamsSchema,
  ArtifactFieldsSchema,
  ArtifactListQuerySchema,
  ArtifactParamsSchema,
  ArtifactPatchSchema,
  ArtifactSchema,
} from './schemas.js';
import type { ArtifactService } from './service.js';

const READ = 'agents:read';
const WRITE = 'agents:write';
const tags = ['Agent artifacts'];

export const artifactRoutes: FastifyPluginAsync<{ artifacts: ArtifactService; storage: BlobStorage; maxBytes: number }> = async (plugin, { artifacts, storage, maxBytes }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  await registerMultipart(app);

  app.post(
    '/agents/:agentId/artifacts',
    {
      config: { scope: WRITE },
      validatorCompiler: multipartValidator,
      schema: {
        tags,
        operationId: 'uploadAgentArtifact',
        description:
          `Uploads an artifact as \`multipart/form-data\` (the file in the part \`file\`, at most ${maxBytes} bytes: 413 otherwise). ` +
          'Allowed: JSON, Markdown, plain text, YAML (declare the type; the content must be valid UTF-8), PDF and ZIP (judged from the bytes); ' +
          'anything else is 422 (`file`, `not_allowed`). A retired agent is 409. Emits `agent.updated` with `changed_fields: ["artifacts"]`.',
        params: ArtifactCollectionParamsSchema,
        ...multipartBody(ArtifactFieldsSchema.properties, ['kind'], 'The file: JSON, Markdown, text, YAML, PDF or ZIP.'),
        response: { 201: ArtifactSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => reply.status(201).send(await artifacts.upload(request, request.auth.accountId, request.params.agentId)),
  );

  app.get(
    '/agents/:agentId/artifacts',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listAgentArtifacts',
        description: 'The artifacts of an agent, newest first.',
        params: ArtifactCollectionParamsSchema,
        querystring: ArtifactListQuerySchema,
        response: { 200: PageSchema(ArtifactSchema), ...errorResponses([...AUTH_ERRORS, 404, 422]) },
      },
    },
    async (request) => artifacts.list(request.auth.accountId, request.params.agentId, request.query),
  );

  app.get(
    '/agents/:agentId/artifacts/:artifactId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getAgentArtifact',
        params: ArtifactParamsSchema,
        response: { 200: ArtifactSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => artifacts.get(request.auth.accountId, request.params.agentId, request.params.artifactId),
  );

  app.get(
    '/agents/:agentId/artifacts/:artifactId/content',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'downloadAgentArtifact',
        description: 'The file, streamed, with `ETag` (its sha256); `If-None-Match` with that ETag answers 304.',
        params: ArtifactParamsSchema,
        response: { ...downloadResponses('The file, in its `content_type`.'), ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request, reply) => {
      const row = await artifacts.content(request.auth.accountId, request.params.agentId, request.params.artifactId);
      return sendDownload(request, reply, storage, { sha256: row.sha256, contentType: row.content_type, filename: row.filename, disposition: 'attachment' });
    },
  );

  app.patch(
    '/agents/:agentId/artifacts/:artifactId',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'updateAgentArtifact',
        description: 'Changes the title, the version label or the kind.',
        params: ArtifactParamsSchema,
        body: ArtifactPatchSchema,
        response: { 200: ArtifactSchema, ...errorResponses([...AUTH_ERRORS, 404, ...BODY_ERRORS]) },
      },
    },
    async (request) => artifacts.update(request.auth.accountId, request.params.agentId, request.params.artifactId, request.body),
  );

  app.delete(
    '/agents/:agentId/artifacts/:artifactId',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'deleteAgentArtifact',
        description: 'Deletes the artifact and its file, unless another record has the same content. Emits `agent.updated`.',
        params: ArtifactParamsSchema,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request, reply) => {
      await artifacts.remove(request.auth.accountId, request.params.agentId, request.params.artifactId);
      return reply.status(204).send(null);
    },
  );
};
