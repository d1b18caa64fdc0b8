import { expect } from 'vitest';
import { afterCursor, type CursorPosition } from '@platform/http';

type Row = { id: string; created_at: Date };
type Page<R> = { data: R[]; page: { next_cursor: string | null; has_more: boolean } };

/**
 * Walks a newest-first list page by page (`page` of a cursor) and checks each page against what
 * Prisma finds after the same position (`prisma` of the `afterCursor` fragment and `take`); returns
 * the ids in the order listed.
 */
export async function walkPagesLikePrisma<R extends Row>(
  page: (cursor: string | undefined) => Promise<Page<R>>,
  prisma: (after: ReturnType<typeof afterCursor>, take: number) => Promise<R[]>,
  limit: number,
): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  let position: CursorPosition | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const listed = await page(cursor);
    const expected = await prisma(afterCursor(position), limit + 1);
    expect(listed.data).toStrictEqual(expected.slice(0, limit));
    expect(listed.page.has_more).toBe(expected.length > limit);
    seen.push(...listed.data.map((row) => row.id));
    if (!listed.page.next_cursor) return seen;
    cursor = listed.page.next_cursor;
    const last = listed.data[listed.data.length - 1];
    position = { createdAt: last.created_at, id: last.id };
  }
  throw new Error('the list did not end');
}

/** Ids newest first, the id breaking ties (descending): the order of the kit's lists. */
export const newestFirstIds = (rows: Row[]) =>
  [...rows]
    .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((row) => row.id);
