import type { Db, Prisma } from '@platform/db';
import { NEWEST_FIRST, cursorPage, type CursorCodec } from '@platform/http';

export type ErasureRecordRow = Prisma.ErasureRecordGetPayload<object>;
export type NewErasureRecord = Omit<ErasureRecordRow, 'reapplied_at'> & { reapplied_at?: Date | null };

/** The inquiries of a forgotten prospect (their messages are removed with them), per prospect. */
export interface InquiryCount {
  prospect_id: string;
  account_id: string;
  inquiries_count: number;
}

/** Per prospect (of those given), how many inquiries they have; in the forgetting transaction. */
export async function inquiryCounts(tx: Db, prospectIds: string[]): Promise<InquiryCount[]> {
  if (prospectIds.length === 0) return [];
  return tx.$queryRawUnsafe<InquiryCount[]>(
    `SELECT p.id AS prospect_id, p.account_id,
            (SELECT count(*) FROM inquiries i WHERE i.prospect_id = p.id)::int AS inquiries_count
       FROM prospects p WHERE p.id = ANY($1::text[])`,
    prospectIds,
  );
}

/** Writes records; a record already there (a re-application of a journal entry) is kept as it is. */
export async function insertErasureRecords(tx: Db, records: NewErasureRecord[]): Promise<void> {
  if (records.length > 0) await tx.erasureRecord.createMany({ data: records, skipDuplicates: true });
}

/** One page of an account's records, newest first, optionally between two times. */
export function erasureRecordPage<Item>(
  db: Db,
  request: {
    accountId: string;
    cursors: CursorCodec;
    cursor?: string;
    limit: number;
    from?: Date;
    to?: Date;
    map: (row: ErasureRecordRow) => Item;
  },
) {
  const { accountId, from, to } = request;
  return cursorPage({
    cursors: request.cursors,
    scope: `erasure_records:${from?.toISOString() ?? ''}:${to?.toISOString() ?? ''}`,
    cursor: request.cursor,
    limit: request.limit,
    fetch: (after, take) =>
      db.erasureRecord.findMany({
        where: {
          account_id: accountId,
          created_at: { ...(from && { gte: from }), ...(to && { lt: to }) },
          ...after,
        },
        orderBy: NEWEST_FIRST,
        take,
      }),
    map: request.map,
  });
}

/** The time of the newest erasure (on request) the database knows; null when none. */
export async function newestErasureAt(db: Db): Promise<Date | null> {
  const newest = await db.erasureRecord.findFirst({
    where: { kind: 'erasure' },
    orderBy: { created_at: 'desc' },
    select: { created_at: true },
  });
  return newest?.created_at ?? null;
}

/** Of these prospects, those that still hold personal data (exist and are not anonymised). */
export async function prospectsNotForgotten(db: Db, prospectIds: string[]): Promise<Set<string>> {
  if (prospectIds.length === 0) return new Set();
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    'SELECT id FROM prospects WHERE id = ANY($1::text[]) AND anonymised_at IS NULL',
    prospectIds,
  );
  return new Set(rows.map((row) => row.id));
}
