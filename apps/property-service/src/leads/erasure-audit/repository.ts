import type { Db, Prisma } from '@platform/db';
import { NEWEST_FIRST, cursorPage, type CursorCodec } from '@platform/http';
import { createdWithin, rangeScope, type LogTimeRange } from '../time-range.js';

export type ErasureRecordRow = Prisma.ErasureRecordGetPayload<object>;
export type NewErasureRecord = Omit<ErasureRecordRow, 'reapplied_at'> & { reapplied_at?: Date | null };

/** The inquiries of a forgotten prospect (their messages are removed with them), per prospect. */
export interface InquiryCount {
  prospect_id: string;
  account_id: string;
  inquiries_count: number;
}

/**
 * Per prospect (of those given), how many inquiries they have; in the forgetting transaction. With
 * `accountId` (an erasure) only that account's prospects; without (the nightly anonymisation of
 * every account) the ids come from the anonymising statement itself.
 */
export async function inquiryCounts(tx: Db, prospectIds: string[], accountId: string): Promise<InquiryCount[]> {
  if (prospectIds.length === 0) return [];
  return tx.$queryRawUnsafe<InquiryCount[]>(
    `SELECT p.id AS prospect_id, p.account_id,
            (SELECT count(*) FROM inquiries i WHERE i.prospect_id = p.id AND i.account_id = p.account_id)::int
              AS inquiries_count
       FROM prospects p WHERE p.id = ANY($1::text[]) AND p.account_id = $2`,
    prospectIds,
    accountId,
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
    range: LogTimeRange;
    map: (row: ErasureRecordRow) => Item;
  },
) {
  const { accountId, range } = request;
  return cursorPage({
    cursors: request.cursors,
    scope: `erasure_records:${rangeScope(range)}`,
    cursor: request.cursor,
    limit: request.limit,
    fetch: (after, take) =>
      db.erasureRecord.findMany({
        where: {
          account_id: accountId,
          ...createdWithin(range),
          ...after,
        },
        orderBy: NEWEST_FIRST,
        take,
      }),
    map: request.map,
  });
}

/** An erasure named by its account and id (journal entries name both). */
export interface AccountScoped {
  account_id: string;
  id: string;
}

/** Ids per query of the lookups below: the statement and its array stay small. */
const LOOKUP_CHUNK = 1_000;

/** Runs `lookup` per chunk of LOOKUP_CHUNK pairs (account ids, ids) and collects the ids it returns. */
async function chunked(
  pairs: AccountScoped[],
  lookup: (accountIds: string[], ids: string[]) => Promise<{ id: string }[]>,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < pairs.length; start += LOOKUP_CHUNK) {
    const chunk = pairs.slice(start, start + LOOKUP_CHUNK);
    const rows = await lookup(
      chunk.map((pair) => pair.account_id),
      chunk.map((pair) => pair.id),
    );
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Of these prospects (account, id), those that still hold personal data (exist and are not anonymised). */
export function prospectsNotForgotten(db: Db, prospects: AccountScoped[]): Promise<Set<string>> {
  return chunked(prospects, (accountIds, ids) =>
    db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT p.id FROM prospects p
         JOIN unnest($1::text[], $2::text[]) AS wanted(account_id, id)
           ON p.account_id = wanted.account_id AND p.id = wanted.id
        WHERE p.anonymised_at IS NULL`,
      accountIds,
      ids,
    ),
  );
}

/** Of these erasure records (account, id), those the database has. */
export function erasureRecordsPresent(db: Db, records: AccountScoped[]): Promise<Set<string>> {
  return chunked(records, (accountIds, ids) =>
    db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT r.id FROM erasure_records r
         JOIN unnest($1::text[], $2::text[]) AS wanted(account_id, id)
           ON r.account_id = wanted.account_id AND r.id = wanted.id`,
      accountIds,
      ids,
    ),
  );
}
