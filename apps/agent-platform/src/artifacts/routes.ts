import type { FastifyPluginAsync } from 'fastify';
import type { BlobStorage } from '@platform/storage';
import { attachmentRoutes } from '@platform/uploads';
import {
  ArtifactCollectionParamsSchema,
  ArtifactFieldsSchema,
  ArtifactListQuerySchema,
  ArtifactParamsSchema,
  ArtifactPatchSchema,
  ArtifactSchema,
} from './schemas.js';
import type { ArtifactService } from './service.js';

/** `/agents/{agentId}/artifacts`: the attachment routes (packages/uploads) with the artifacts' words. */
export const artifactRoutes: FastifyPluginAsync<{
  artifacts: ArtifactService;
  storage: BlobStorage;
  maxBytes: number;
}> = async (app, { artifacts, storage, maxBytes }) =>
  attachmentRoutes(app, {
    path: '/agents/:agentId/artifacts',
    parentParam: 'agentId',
    idParam: 'artifactId',
    scopes: { read: 'agents:read', write: 'agents:write' },
    tags: ['Agent artifacts'],
    operationIds: {
      upload: 'uploadAgentArtifact',
      list: 'listAgentArtifacts',
      get: 'getAgentArtifact',
      download: 'downloadAgentArtifact',
      update: 'updateAgentArtifact',
      delete: 'deleteAgentArtifact',
    },
    summaries: {
      upload: 'Upload an artifact of an agent',
      list: "List an agent's artifacts",
      get: 'Get an artifact of an agent',
      download: 'Download an artifact of an agent',
      update: 'Update an artifact of an agent',
      delete: 'Delete an artifact of an agent',
    },
    descriptions: {
      upload:
        `Uploads an artifact as \`multipart/form-data\` (the file in the part \`file\`, at most ${maxBytes} bytes: 413 otherwise). ` +
        'Allowed: JSON, Markdown, plain text, YAML (declare the type; the content must be valid UTF-8), PDF and ZIP (judged from the bytes); ' +
        'anything else is 422 (`file`, `not_allowed`). A PDF is parsed at upload, apart from the service: one that cannot be read or is encrypted is 422 ' +
        '(`file`, `invalid_format`); one of more than 2000 pages or 500000 objects, or whose parsing needs more memory or time than allowed, is 422 ' +
        '(`file`, `out_of_range`); the message says which. A retired agent is 409. Emits `agent.updated` with `changed_fields: ["artifacts"]`.',
      file: 'The file: JSON, Markdown, text, YAML, PDF or ZIP.',
      list: 'The artifacts of an agent, newest first.',
      update: 'Changes the title, the version label or the kind.',
      delete: 'Deletes the artifact and its file, unless another record has the same content. Emits `agent.updated`.',
    },
    schemas: {
      collectionParams: ArtifactCollectionParamsSchema,
      params: ArtifactParamsSchema,
      fields: ArtifactFieldsSchema,
      listQuery: ArtifactListQuerySchema,
      patch: ArtifactPatchSchema,
      view: ArtifactSchema,
    },
    service: artifacts,
    storage,
  });
