import { newId, readRows, tryAdvisoryXactLock, type Db } from '@platform/db';
import { listBody, notFound, type CursorCodec } from '@platform/http';
import { scopeOf } from '@platform/resource';
import type { CheckedContent, ReceivedFile } from '@platform/uploads';
import type { MediaRow, RenditionRow } from './mapping.js';
import type { MediaKind } from './schemas.js';

export const mediaNotFound = () => notFound('No media with this id.');

export interface NewMedia {
  accountId: string;
  propertyId: string;
  kind: MediaKind;
  title: string | null;
  position: number;
  file: ReceivedFile;
  at: Date;
}

/** Media of one property and their renditions, account-scoped; the list is ordered by position. */
export const mediaRepository = {
  /** In SQL straight through the pool (readRows): every download starts here. */
  async find(db: Db, accountId: string, propertyId: string, id: string): Promise<MediaRow> {
    const [row] = await readRows<MediaRow>(
      db,
      'SELECT * FROM property_media WHERE id = $1 AND account_id = $2 AND property_id = $3',
      [id, accountId, propertyId],
    );
    if (!row) throw mediaNotFound();
    return row;
  },

  /** A medium's rendition of one variant (404 when the medium or the rendition is not there). */
  async findRendition(
    db: Db,
    accountId: string,
    propertyId: string,
    id: string,
    variant: string,
  ): Promise<RenditionRow> {
    const [row] = await readRows<RenditionRow>(
      db,
      `SELECT r.* FROM media_renditions r JOIN property_media m ON m.id = r.media_id
       WHERE r.media_id = $1 AND m.account_id = $2 AND m.property_id = $3 AND r.variant = $4`,
      [id, accountId, propertyId, variant],
    );
    if (!row) throw notFound('No rendition of this variant: a document has none.');
    return row;
  },

  /** A property's photos and floor plans (never its documents), in position order: what a listing copies. */
  publishableOf(db: Db, propertyId: string): Promise<MediaRow[]> {
    return db.propertyMedia.findMany({
      where: { property_id: propertyId, kind: { not: 'document' } },
      orderBy: { position: 'asc' },
    });
  },

  /** The renditions of the given media, by medium. */
  async renditionsOf(db: Db, mediaIds: readonly string[]): Promise<Map<string, RenditionRow[]>> {
    const rows =
      mediaIds.length === 0 ? [] : await db.mediaRendition.findMany({ where: { media_id: { in: [...mediaIds] } } });
    const byMedia = new Map<string, RenditionRow[]>(mediaIds.map((id) => [id, []]));
    for (const row of rows) byMedia.get(row.media_id)?.push(row);
    return byMedia;
  },

  /** Records a medium and its renditions (their blobs claimed by the caller). */
  async insert(tx: Db, { accountId, propertyId, kind, title, position, file, at }: NewMedia): Promise<MediaRow> {
    const id = newId('med', at.getTime());
    const row = await tx.propertyMedia.create({
      data: {
        id,
        account_id: accountId,
        property_id: propertyId,
        kind,
        title,
        position,
        content_type: file.contentType,
        size: file.size,
        sha256: file.sha256,
        filename: file.filename,
        width: file.width,
        height: file.height,
        created_at: at,
        updated_at: at,
      },
    });
    await this.insertRenditions(tx, accountId, id, file.renditions, at);
    return row;
  },

  insertRenditions(tx: Db, accountId: string, mediaId: string, renditions: ReceivedFile['renditions'], at: Date) {
    return tx.mediaRendition.createMany({
      data: renditions.map((r) => ({
        id: newId('mrd', at.getTime()),
        account_id: accountId,
        media_id: mediaId,
        variant: r.variant,
        content_type: r.contentType,
        size: r.size,
        sha256: r.sha256,
        width: r.width,
        height: r.height,
        created_at: at,
      })),
    });
  },

  /** Photos and floor plans stored before renditions were made at upload, that have none yet and did not fail. */
  withoutRenditions(db: Db, limit: number): Promise<MediaRow[]> {
    return db.propertyMedia.findMany({
      where: { kind: { not: 'document' }, rendition_failure: null, renditions: { none: {} } },
      orderBy: { created_at: 'asc' },
      take: limit,
    });
  },

  /**
   * Takes a medium for the renditions job until the transaction ends (a transaction-scoped advisory
   * lock, so that a second run at the same time skips it instead of decoding it too) and reads it
   * again under that lock: null when another run holds it, or it is gone, has renditions or a
   * recorded failure by now (a run that held it before has finished).
   */
  async claimForRenditions(tx: Db, id: string): Promise<MediaRow | null> {
    if (!(await tryAdvisoryXactLock(tx, `media-renditions:${id}`))) return null;
    const [row] = await readRows<MediaRow>(
      tx,
      `SELECT * FROM property_media m WHERE id = $1 AND kind <> 'document' AND rendition_failure IS NULL
         AND NOT EXISTS (SELECT 1 FROM media_renditions r WHERE r.media_id = m.id)`,
      [id],
    );
    return row ?? null;
  },

  /** Records the renditions made afterwards, and the decoded size; false when the medium is gone or has renditions meanwhile. */
  async addRenditions(tx: Db, medium: MediaRow, content: CheckedContent, at: Date): Promise<boolean> {
    const locked = await readRows<{ id: string }>(tx, 'SELECT id FROM property_media WHERE id = $1 FOR UPDATE', [
      medium.id,
    ]);
    if (locked.length === 0 || (await tx.mediaRendition.count({ where: { media_id: medium.id } })) > 0) return false;
    await tx.propertyMedia.update({ where: { id: medium.id }, data: { width: content.width, height: content.height } });
    await this.insertRenditions(tx, medium.account_id, medium.id, content.renditions, at);
    return true;
  },

  /** Records why a medium cannot get renditions; false when it is gone or has a failure recorded already. */
  async recordRenditionFailure(db: Db, id: string, reason: string): Promise<boolean> {
    const { count } = await db.propertyMedia.updateMany({
      where: { id, rendition_failure: null },
      data: { rendition_failure: reason.slice(0, 500) },
    });
    return count === 1;
  },

  /** Deletes a medium with its renditions; returns the renditions' content addresses (their blobs are released by the caller). */
  async delete(tx: Db, row: MediaRow): Promise<string[]> {
    const renditions = await tx.mediaRendition.findMany({ where: { media_id: row.id }, select: { sha256: true } });
    await tx.propertyMedia.delete({ where: { id: row.id } }); // its renditions go with it (cascade)
    return renditions.map((r) => r.sha256);
  },

  update(tx: Db, id: string, data: { title?: string | null; position?: number; updated_at?: Date }): Promise<MediaRow> {
    return tx.propertyMedia.update({ where: { id }, data });
  },

  /** Moves the media at positions `from..to` (inclusive; to the end without `to`) by `by` (±1), to open or close a gap. */
  shift(tx: Db, propertyId: string, from: number, to: number | undefined, by: 1 | -1) {
    return tx.propertyMedia.updateMany({
      where: { property_id: propertyId, position: { gte: from, ...(to === undefined ? {} : { lte: to }) } },
      data: { position: { increment: by } },
    });
  },

  /** One page in position order; the cursor carries the last position and is bound to the property's list. */
  async page<Item>(
    db: Db,
    accountId: string,
    propertyId: string,
    request: {
      cursors: CursorCodec;
      cursor?: string;
      limit: number;
      map: (row: MediaRow, renditions: RenditionRow[]) => Item;
    },
  ) {
    const scope = scopeOf('property_media', accountId, { propertyId });
    let after: number | undefined;
    if (request.cursor) {
      const [position] = request.cursors.decode(request.cursor, scope).id.split('|');
      after = Number(position);
    }
    const rows = await db.propertyMedia.findMany({
      where: {
        account_id: accountId,
        property_id: propertyId,
        ...(after === undefined ? {} : { position: { gt: after } }),
      },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      take: request.limit + 1,
    });
    const renditions = await this.renditionsOf(
      db,
      rows.map((row) => row.id),
    );
    return listBody(
      rows,
      request.limit,
      (row) => request.map(row, renditions.get(row.id) ?? []),
      (last) => request.cursors.encode({ createdAt: last.created_at, id: `${last.position}|${last.id}` }, scope),
    );
  },
};
