import { lockOwnRow, type Db } from '@platform/db';
import { NEWEST_FIRST, cursorPage, type ApiError, type CursorCodec } from '@platform/http';

/** The orderings of the kit's lists: newest first, or best score first. */
type Ordering = { score?: 'desc'; created_at?: 'desc'; id?: 'desc' }[];

/** The part of a Prisma model delegate the kit uses (`db.property` is one). */
export interface TenantModel<Row, Columns> {
  findFirst(args: { where: { id: string; account_id: string } }): PromiseLike<Row | null>;
  findUniqueOrThrow(args: { where: { id: string } }): PromiseLike<Row>;
  findMany(args: { where: Record<string, unknown>; orderBy: Ordering; take: number }): PromiseLike<Row[]>;
  update(args: { where: { id: string }; data: Columns }): PromiseLike<Row>;
}

export interface RepositoryOptions<Row, Columns> {
  /** SQL table, for row locks. */
  table: string;
  /** Name of the list, part of every cursor's signature (a cursor of one list fails on another). */
  list: string;
  model: (db: Db) => TenantModel<Row, Columns>;
  /** The 404 of this resource (a record of another account is answered exactly so). */
  notFound: () => ApiError;
}

export interface PageRequest<Row, Item> {
  cursors: CursorCodec;
  cursor?: string;
  limit: number;
  /** Equality filters of the list (`undefined`: not filtered); they become part of the cursor's scope. */
  filters?: Record<string, unknown>;
  map: (row: Row) => Item;
}

export type TenantRepository<Row extends { id: string; created_at: Date }, Columns> = ReturnType<typeof tenantRepository<Row, Columns>>;

/** Data access of a tenant-owned resource: every query is scoped by `account_id`. */
export function tenantRepository<Row extends { id: string; created_at: Date }, Columns>(options: RepositoryOptions<Row, Columns>) {
  const { table, list, model, notFound } = options;
  return {
    table,
    list,
    model,
    notFound,

    /** The account's row, or this resource's 404 (`missing`: another 404, e.g. for a referenced id). */
    async find(db: Db, accountId: string, id: string, missing: () => ApiError = notFound): Promise<Row> {
      const row = await model(db).findFirst({ where: { id, account_id: accountId } });
      if (!row) throw missing();
      return row;
    },

    /** Locks the account's row until the transaction ends, without reading it; or 404. */
    async hold(tx: Db, accountId: string, id: string, mode: 'update' | 'share' = 'update'): Promise<void> {
      if (!(await lockOwnRow(tx, table, id, accountId, mode))) throw notFound();
    },

    /** Locks the account's row until the transaction ends (`share`: while it is referenced), then reads it; or 404. */
    async lock(tx: Db, accountId: string, id: string, mode: 'update' | 'share' = 'update', missing: () => ApiError = notFound): Promise<Row> {
      if (!(await lockOwnRow(tx, table, id, accountId, mode))) throw missing();
      return model(tx).findUniqueOrThrow({ where: { id } });
    },

    /** Newest first, after the cursor; the cursor is bound to the list, the account and the filters. */
    page<Item>(db: Db, accountId: string, request: PageRequest<Row, Item>) {
      const filters = request.filters ?? {};
      return cursorPage({
        cursors: request.cursors,
        scope: scopeOf(list, accountId, filters),
        cursor: request.cursor,
        limit: request.limit,
        fetch: (after, take) => model(db).findMany({ where: { account_id: accountId, ...filters, ...after }, orderBy: NEWEST_FIRST, take }),
        map: request.map,
      });
    },
  };
}

/** What a cursor is signed for: the list, the account and the filter values. */
export function scopeOf(list: string, accountId: string, filters: Record<string, unknown>): string {
  return `${list}:${JSON.stringify([accountId, ...Object.values(filters).map((value) => value ?? null)])}`;
}
