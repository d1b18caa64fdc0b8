import { readRows, type Db } from '@platform/db';
import { listBody, notFound, type CursorCodec } from '@platform/http';
import { scopeOf } from '@platform/resource';
import type { MediaRow } from './mapping.js';

export const mediaNotFound = () => notFound('No media with this id.');

/** Media of one property, account-scoped; the list is ordered by position. */
export const mediaRepository = {
  /** In SQL straight through the pool (readRows): every download starts here. */
  async find(db: Db, accountId: string, propertyId: string, id: string): Promise<MediaRow> {
    const [row] = await readRows<MediaRow>(db, 'SELECT * FROM property_media WHERE id = $1 AND account_id = $2 AND property_id = $3', [id, accountId, propertyId]);
    if (!row) throw mediaNotFound();
    return row;
  },

  /** Moves the media at positions `from..to` (inclusive; to the end without `to`) by `by` (±1), to open or close a gap. */
  shift(tx: Db, propertyId: string, from: number, to: number | undefined, by: 1 | -1) {
    return tx.propertyMedia.updateMany({ where: { property_id: propertyId, position: { gte: from, ...(to === undefined ? {} : { lte: to }) } }, data: { position: { increment: by } } });
  },

  /** One page in position order; the cursor carries the last position and is bound to the property's list. */
  async page<Item>(db: Db, accountId: string, propertyId: string, request: { cursors: CursorCodec; cursor?: string; limit: number; map: (row: MediaRow) => Item }) {
    const scope = scopeOf('property_media', accountId, { propertyId });
    let after: number | undefined;
    if (request.cursor) {
      const [position] = request.cursors.decode(request.cursor, scope).id.split('|');
      after = Number(position);
    }
    const rows = await db.propertyMedia.findMany({
      where: { account_id: accountId, property_id: propertyId, ...(after === undefined ? {} : { position: { gt: after } }) },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      take: request.limit + 1,
    });
    return listBody(rows, request.limit, request.map, (last) => request.cursors.encode({ createdAt: last.created_at, id: `${last.position}|${last.id}` }, scope));
  },
};
