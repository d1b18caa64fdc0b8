import type { Prisma } from '@platform/db';
import type { Artifact } from './schemas.js';

export type ArtifactRow = Prisma.AgentArtifactGetPayload<object>;

export function toArtifact(row: ArtifactRow): Artifact {
  return {
    id: row.id,
    agent_id: row.agent_id,
    kind: row.kind,
    title: row.title,
    version: row.version,
    content_type: row.content_type,
    size: row.size,
    sha256: row.sha256,
    filename: row.filename,
    content_url: `/v1/agents/${row.agent_id}/artifacts/${row.id}/content`,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
