import type { FastifyRequest } from 'fastify';
import { inTransaction, newId } from '@platform/db';
import { ApiError, assertValid, compileBodyValidator } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { attachments } from '@platform/uploads';
import { agentRepository, countArtifacts } from '../agents/index.js';
import type { AgentPlatformEvents } from '../events.js';
import { toArtifact } from './mapping.js';
import { artifactRepository, deleteArtifact, insertArtifact, updateArtifact } from './repository.js';
import {
  ARTIFACT_PDF_LIMITS,
  ARTIFACT_TYPES,
  ArtifactFieldsSchema,
  type Artifact,
  type ArtifactFields,
  type ArtifactPatch,
} from './schemas.js';

export type ArtifactServiceDeps = Pick<
  ApiContext<AgentPlatformEvents>,
  'db' | 'cursors' | 'now' | 'emit' | 'storage' | 'sandbox' | 'decodeTimeoutMs'
> & {
  /** Per-file limit in bytes. */
  maxBytes: number;
};

export type ArtifactService = ReturnType<typeof createArtifactService>;

const validateFields = compileBodyValidator<ArtifactFields>(ArtifactFieldsSchema);
/** Files of an agent; `artifact_count` is kept under the agent's row lock. */
export function createArtifactService({
  db,
  cursors,
  now,
  emit,
  storage,
  sandbox,
  decodeTimeoutMs,
  maxBytes,
}: ArtifactServiceDeps) {
  const files = attachments(
    { db, storage, sandbox, now, maxBytes },
    {
      parent: {
        find: (d, accountId, id) => agentRepository.find(d, accountId, id),
        lock: (tx, accountId, id) => agentRepository.lock(tx, accountId, id),
        refuses: (agent) =>
          agent.status === 'retired'
            ? new ApiError('conflict', { message: 'A retired agent takes no new artifacts.' })
            : null,
      },
      fields: (raw) => assertValid(validateFields, raw),
      allowed: () => ARTIFACT_TYPES,
      // A PDF is parsed within limits (an artifact is never published, so nothing is rendered); no image type is allowed.
      content: () => ({
        maxPixels: 0,
        pdf: ARTIFACT_PDF_LIMITS,
        renditions: [],
        maxRenderedPages: 0,
        timeoutMs: decodeTimeoutMs,
      }),
      insert: (tx, { accountId, parentId, file, fields, at }) =>
        insertArtifact(tx, {
          id: newId('art', at.getTime()),
          account_id: accountId,
          agent_id: parentId,
          kind: fields.kind,
          title: fields.title ?? null,
          version: fields.version ?? null,
          content_type: file.contentType,
          size: file.size,
          sha256: file.sha256,
          filename: file.filename,
          created_at: at,
          updated_at: at,
        }),
      find: (d, accountId, agentId, id) => artifactRepository.find(d, accountId, agentId, id),
      delete: async (tx, row) => {
        await deleteArtifact(tx, row.id);
        return [];
      },
      async counted(tx, { accountId, parentId, delta, at }) {
        await countArtifacts(tx, parentId, delta, at);
        await emit(tx, {
          accountId,
          type: 'agent.updated',
          data: { agent_id: parentId, changed_fields: ['artifacts'] },
          at,
        });
      },
    },
  );

  return {
    /** Streams the upload to storage, checks it, then records it; a refused or failed upload leaves no row and no blob. */
    async upload(request: FastifyRequest, accountId: string, agentId: string): Promise<Artifact> {
      return toArtifact(await files.upload(request, accountId, agentId));
    },

    async list(accountId: string, agentId: string, { limit, cursor }: { limit: number; cursor?: string }) {
      await agentRepository.find(db, accountId, agentId);
      return artifactRepository.page(db, accountId, agentId, { cursors, cursor, limit, map: toArtifact });
    },

    async get(accountId: string, agentId: string, id: string): Promise<Artifact> {
      return toArtifact(await artifactRepository.find(db, accountId, agentId, id));
    },

    content(accountId: string, agentId: string, id: string) {
      return artifactRepository.find(db, accountId, agentId, id);
    },

    update(accountId: string, agentId: string, id: string, patch: ArtifactPatch): Promise<Artifact> {
      return inTransaction(db, async (tx) => {
        await agentRepository.lock(tx, accountId, agentId);
        const row = await artifactRepository.find(tx, accountId, agentId, id);
        const data: Partial<Pick<typeof row, 'title' | 'version' | 'kind' | 'updated_at'>> = {};
        if (patch.title !== undefined && patch.title !== row.title) data.title = patch.title;
        if (patch.version !== undefined && patch.version !== row.version) data.version = patch.version;
        if (patch.kind !== undefined && patch.kind !== row.kind) data.kind = patch.kind;
        if (Object.keys(data).length === 0) return toArtifact(row);
        data.updated_at = now();
        return toArtifact(await updateArtifact(tx, id, data));
      });
    },

    /** Removes the record, then its blob unless another record uses the same content. */
    remove(accountId: string, agentId: string, id: string): Promise<void> {
      return files.remove(accountId, agentId, id);
    },
  };
}
