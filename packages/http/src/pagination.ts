import { createHmac, timingSafeEqual } from 'node:crypto';
import { Type, type TSchema } from '@sinclair/typebox';
import { validationError } from './errors.js';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

function pageQuery(texts: { limit: string; cursor: string }) {
  return Type.Object({
    limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: texts.limit }),
    cursor: Type.Optional(Type.String({ maxLength: 512, description: texts.cursor })),
  });
}

/** Query parameters every list takes. */
export const PageQuerySchema = pageQuery({
  limit: 'Page size, 1 to 100.',
  cursor: 'Opaque cursor from `next_cursor` of the previous page.',
});

/** The same parameters, described in German for the leads API's document. */
export const SeitenQuerySchema = pageQuery({
  limit: 'Seitengröße, 1 bis 100.',
  cursor: 'Undurchsichtiger Cursor aus `naechster_cursor` der vorigen Seite.',
});

/** English list body: `{data, page: {next_cursor, has_more}}`. */
export function PageSchema<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    page: Type.Object({ next_cursor: Type.Union([Type.String(), Type.Null()]), has_more: Type.Boolean() }),
  });
}

/** German list body: `{daten, seite: {naechster_cursor, hat_weitere}}`. */
export function SeiteSchema<T extends TSchema>(item: T) {
  return Type.Object({
    daten: Type.Array(item),
    seite: Type.Object({ naechster_cursor: Type.Union([Type.String(), Type.Null()]), hat_weitere: Type.Boolean() }),
  });
}

/** Position after the last row of a page, in a `(created_at DESC, id DESC)` ordering. */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

/**
 * Cursors are signed, so a tampered or hand-made cursor is refused instead of silently
 * returning a wrong page. The `scope` binds a cursor to one list (and its filters).
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(position: CursorPosition, scope: string): string {
    const payload = Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
    return `${payload}.${this.sign(payload, scope)}`;
  }

  decode(cursor: string, scope: string, field = 'cursor'): CursorPosition {
    const invalid = () =>
      validationError(
        [{ field, reason: 'invalid_format' }],
        'The cursor is not valid for this list.',
        'Der Cursor gilt nicht für diese Liste.',
      );
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(payload, scope));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    try {
      const [createdAt, id] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [string, string];
      const date = new Date(createdAt);
      if (Number.isNaN(date.getTime()) || typeof id !== 'string') throw invalid();
      return { createdAt: date, id };
    } catch {
      throw invalid();
    }
  }

  private sign(payload: string, scope: string): string {
    return createHmac('sha256', this.secret).update(`${scope}\n${payload}`).digest('base64url').slice(0, 22);
  }
}

/** Prisma `where` fragment for the rows after a cursor in `(created_at DESC, id DESC)` order. */
export function afterCursor(position: CursorPosition | undefined) {
  if (!position) return {};
  return {
    OR: [{ created_at: { lt: position.createdAt } }, { created_at: position.createdAt, id: { lt: position.id } }],
  };
}

export const NEWEST_FIRST = [{ created_at: 'desc' as const }, { id: 'desc' as const }];

/** The English list body of `limit + 1` fetched rows; the extra row only tells whether more exist. */
export function listBody<Row, Item>(
  rows: Row[],
  limit: number,
  map: (row: Row) => Item,
  cursorAfter: (last: Row) => string,
) {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return {
    data: items.map(map),
    page: { next_cursor: hasMore ? cursorAfter(items[items.length - 1]) : null, has_more: hasMore },
  };
}

/**
 * One page of a `(created_at DESC, id DESC)` list: decodes the cursor for `scope` (the list and
 * its filters), fetches `limit + 1` rows after it and returns the English list body.
 */
export async function cursorPage<Row extends { created_at: Date; id: string }, Item>(options: {
  cursors: CursorCodec;
  scope: string;
  cursor: string | undefined;
  limit: number;
  /** The rows after the cursor: given as a Prisma `where` fragment and as the position itself. */
  fetch: (
    after: ReturnType<typeof afterCursor>,
    take: number,
    position: CursorPosition | undefined,
  ) => PromiseLike<Row[]>;
  map: (row: Row) => Item;
}): Promise<{ data: Item[]; page: { next_cursor: string | null; has_more: boolean } }> {
  // `limit` is validated for every route by the schema and the http plugin (which also refuses `1e400`).
  const { cursors, scope, limit } = options;
  const position = options.cursor ? cursors.decode(options.cursor, scope) : undefined;
  const rows = await options.fetch(afterCursor(position), limit + 1, position);
  return listBody(rows, limit, options.map, (last) =>
    cursors.encode({ createdAt: last.created_at, id: last.id }, scope),
  );
}

/** The leads API's list body: `{daten, seite: {naechster_cursor, hat_weitere}}`. */
export function toSeite<T>(page: { data: T[]; page: { next_cursor: string | null; has_more: boolean } }) {
  return { daten: page.data, seite: { naechster_cursor: page.page.next_cursor, hat_weitere: page.page.has_more } };
}

/** Position after the last row of a `(score DESC, created_at DESC, id DESC)` ordering. */
export interface ScoredPosition {
  score: number;
  createdAt: Date;
  id: string;
}

/** Cursor for lists ordered by a score first; signed and scoped like `CursorCodec`. */
export class ScoredCursorCodec {
  private readonly inner: CursorCodec;

  constructor(secret: string) {
    this.inner = new CursorCodec(`${secret}:scored`);
  }

  encode(position: ScoredPosition, scope: string): string {
    return this.inner.encode({ createdAt: position.createdAt, id: `${position.score}|${position.id}` }, scope);
  }

  decode(cursor: string, scope: string): ScoredPosition {
    const { createdAt, id } = this.inner.decode(cursor, scope);
    const [score, rest] = [id.slice(0, id.indexOf('|')), id.slice(id.indexOf('|') + 1)];
    if (!/^\d{1,3}$/.test(score)) throw validationError([{ field: 'cursor', reason: 'invalid_format' }]);
    return { score: Number(score), createdAt, id: rest };
  }
}

/** Prisma `where` fragment for the rows after a scored position. */
export function afterScored(position: ScoredPosition | undefined) {
  if (!position) return {};
  return {
    OR: [
      { score: { lt: position.score } },
      { score: position.score, created_at: { lt: position.createdAt } },
      { score: position.score, created_at: position.createdAt, id: { lt: position.id } },
    ],
  };
}

export const BEST_FIRST = [{ score: 'desc' as const }, { created_at: 'desc' as const }, { id: 'desc' as const }];

/**
 * One page of a `(score DESC, created_at DESC, id DESC)` list, like `cursorPage`: the cursor
 * carries the score too, signed for `scope`.
 */
export async function scoredCursorPage<Row extends { score: number; created_at: Date; id: string }, Item>(options: {
  cursors: ScoredCursorCodec;
  scope: string;
  cursor: string | undefined;
  limit: number;
  fetch: (after: ReturnType<typeof afterScored>, take: number) => PromiseLike<Row[]>;
  map: (row: Row) => Item;
}): Promise<{ data: Item[]; page: { next_cursor: string | null; has_more: boolean } }> {
  const { cursors, scope, limit } = options;
  const position = options.cursor ? cursors.decode(options.cursor, scope) : undefined;
  const rows = await options.fetch(afterScored(position), limit + 1);
  return listBody(rows, limit, options.map, (last) =>
    cursors.encode({ score: last.score, createdAt: last.created_at, id: last.id }, scope),
  );
}
