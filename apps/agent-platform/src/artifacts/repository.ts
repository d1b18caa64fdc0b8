import type { Db } from '@platform/db';
import { NEWEST_FIRST, cursorPage, notFound, type CursorCodec } from '@platform/http';
import { scopeOf } from '@platform/resource';
import type { ArtifactRow } from './mapping.js';

export const artifactNotFound = () => notFound('No artifact with this id.');

/** Artifacts of one agent, account-scoped; the list is newest first. */
export const artifactRepository = {
  async find(db: Db, accountId: string, agentId: string, id: string): Promise<ArtifactRow> {
    const row = await db.agentArtifact.findFirst({ where: { id, account_id: accountId, agent_id: agentId } });
    if (!row) throw artifactNotFound();
    return row;
  },

  page<Item>(
    db: Db,
    accountId: string,
    agentId: string,
    request: { cursors: CursorCodec; cursor?: string; limit: number; map: (row: ArtifactRow) => Item },
  ) {
    return cursorPage({
      cursors: request.cursors,
      scope: scopeOf('agent_artifacts', accountId, { agentId }),
      cursor: request.cursor,
      limit: request.limit,
      fetch: (after, take) =>
        db.agentArtifact.findMany({
          where: { account_id: accountId, agent_id: agentId, ...after },
          orderBy: NEWEST_FIRST,
          take,
        }),
      map: request.map,
    });
  },
};

/** Every artifact of the agent, oldest first (what a catalog entry copies). */
export function artifactsOfAgent(db: Db, accountId: string, agentId: string): Promise<ArtifactRow[]> {
  return db.agentArtifact.findMany({
    where: { account_id: accountId, agent_id: agentId },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
}

/** Stores an artifact's row (the upload's transaction, under the agent's row lock). */
export function insertArtifact(db: Db, data: ArtifactRow): Promise<ArtifactRow> {
  return db.agentArtifact.create({ data });
}

/** Writes the changed fields of an artifact. */
export function updateArtifact(
  db: Db,
  id: string,
  data: Partial<Pick<ArtifactRow, 'title' | 'version' | 'kind' | 'updated_at'>>,
): Promise<ArtifactRow> {
  return db.agentArtifact.update({ where: { id }, data });
}

export async function deleteArtifact(db: Db, id: string): Promise<void> {
  await db.agentArtifact.delete({ where: { id } });
}
