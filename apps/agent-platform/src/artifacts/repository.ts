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
