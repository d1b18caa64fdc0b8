import { newId, type Db, type Prisma } from '@platform/db';
import { NEWEST_FIRST, cursorPage, type CursorCodec } from '@platform/http';
import { createdWithin, rangeScope, type LogTimeRange } from '../time-range.js';

export type AuskunftRecordRow = Prisma.AuskunftRecordGetPayload<object>;

/** Records an export (ids, time, format, requester): the only write of auskunft_records. */
export async function insertAuskunftRecord(db: Db, record: Omit<AuskunftRecordRow, 'id'>): Promise<void> {
  await db.auskunftRecord.create({ data: { id: newId('ausk', record.created_at.getTime()), ...record } });
}

/** One page of an account's records, newest first, optionally of one prospect and between two times. */
export function auskunftRecordPage<Item>(
  db: Db,
  request: {
    accountId: string;
    cursors: CursorCodec;
    cursor?: string;
    limit: number;
    prospectId?: string;
    range: LogTimeRange;
    map: (row: AuskunftRecordRow) => Item;
  },
) {
  const { accountId, prospectId, range } = request;
  return cursorPage({
    cursors: request.cursors,
    scope: `auskunft_records:${prospectId ?? ''}:${rangeScope(range)}`,
    cursor: request.cursor,
    limit: request.limit,
    fetch: (after, take) =>
      db.auskunftRecord.findMany({
        where: {
          account_id: accountId,
          ...(prospectId !== undefined && { prospect_id: prospectId }),
          ...createdWithin(range),
          ...after,
        },
        orderBy: NEWEST_FIRST,
        take,
      }),
    map: request.map,
  });
}
