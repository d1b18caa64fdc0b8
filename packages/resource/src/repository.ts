import { lockOwnRow, readRows, type Db, type SqlRunner } from '@platform/db';
import { NEWEST_FIRST, cursorPage, type ApiError, type CursorCodec, type CursorPosition } from '@platform/http';

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
  /**
   * Read by id and by page, locked and patched with SQL of the kit straight through pg (db's
   * `readRows`, `inDirectTransaction`), not through Prisma: for the hottest resources. The table's columns must be the model's fields; `fromRow`
   * turns what differs (enum values with `@map`) into Prisma's values, `toDb` back.
   */
  directSql?: { fromRow?: (row: Row) => Row; toDb?: (columns: Record<string, unknown>) => Record<string, unknown> };
}

export interface PageRequest<Row, Item> {
  cursors: CursorCodec;
  cursor?: string;
  limit: number;
  /** Equality filters of the list (`undefined`: not filtered); they become part of the cursor's scope. */
  filters?: Record<string, unknown>;
  map: (row: Row) => Item;
}

export type TenantRepository<Row extends { id: string; created_at: Date }, Columns> = ReturnType<
  typeof tenantRepository<Row, Columns>
>;

/** Data access of a tenant-owned resource: every query is scoped by `account_id`. */
export function tenantRepository<Row extends { id: string; created_at: Date }, Columns>(
  options: RepositoryOptions<Row, Columns>,
) {
  const { table, list, model, notFound } = options;
  const direct = options.directSql && directSql<Row>(table, options.directSql.fromRow, options.directSql.toDb);
  return {
    table,
    list,
    model,
    notFound,
    /** The SQL reads and writes of a resource with `directSql`. */
    direct,

    /** The account's row, or this resource's 404 (`missing`: another 404, e.g. for a referenced id). */
    async find(db: Db, accountId: string, id: string, missing: () => ApiError = notFound): Promise<Row> {
      const row = direct
        ? await direct.find(db, accountId, id)
        : await model(db).findFirst({ where: { id, account_id: accountId } });
      if (!row) throw missing();
      return row;
    },

    /** Locks the account's row until the transaction ends, without reading it; or 404. */
    async hold(tx: Db, accountId: string, id: string, mode: 'update' | 'share' = 'update'): Promise<void> {
      if (!(await lockOwnRow(tx, table, id, accountId, mode))) throw notFound();
    },

    /** Locks the account's row until the transaction ends (`share`: while it is referenced), then reads it; or 404. */
    async lock(
      tx: Db,
      accountId: string,
      id: string,
      mode: 'update' | 'share' = 'update',
      missing: () => ApiError = notFound,
    ): Promise<Row> {
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
        fetch: (after, take, position) =>
          direct
            ? direct.page(db, accountId, filters, position, take)
            : model(db).findMany({
                where: { account_id: accountId, ...filters, ...after },
                orderBy: NEWEST_FIRST,
                take,
              }),
        map: request.map,
      });
    },
  };
}

const COLUMN = /^[a-z_][a-z0-9_]*$/;

/** The kit's reads of a table in SQL: by id, and a page newest first with equality filters. */
function directSql<Row>(
  table: string,
  fromRow: (row: Row) => Row = (row) => row,
  toDb: (columns: Record<string, unknown>) => Record<string, unknown> = (c) => c,
) {
  if (!COLUMN.test(table)) throw new Error(`Not a table name: ${table}`);
  return {
    /** Locks the account's row until the transaction ends and reads it, in one statement. */
    async lock(tx: SqlRunner, accountId: string, id: string): Promise<Row | undefined> {
      const rows = await readRows<Row>(tx, `SELECT * FROM "${table}" WHERE id = $1 AND account_id = $2 FOR UPDATE`, [
        id,
        accountId,
      ]);
      return rows.length > 0 ? fromRow(rows[0]) : undefined;
    },

    /** Writes the columns of the row and returns it as it is now. */
    async update(tx: SqlRunner, id: string, columns: Record<string, unknown>): Promise<Row> {
      const values: unknown[] = [id];
      const set = Object.entries(toDb(columns)).map(([column, value]) => {
        if (!COLUMN.test(column)) throw new Error(`Not a column name: ${column}`);
        return `"${column}" = $${values.push(value)}`;
      });
      const rows = await readRows<Row>(tx, `UPDATE "${table}" SET ${set.join(', ')} WHERE id = $1 RETURNING *`, values);
      return fromRow(rows[0]);
    },

    async find(db: Db, accountId: string, id: string): Promise<Row | undefined> {
      const rows = await readRows<Row>(db, `SELECT * FROM "${table}" WHERE id = $1 AND account_id = $2`, [
        id,
        accountId,
      ]);
      return rows.length > 0 ? fromRow(rows[0]) : undefined;
    },

    async page(
      db: Db,
      accountId: string,
      filters: Record<string, unknown>,
      after: CursorPosition | undefined,
      take: number,
    ): Promise<Row[]> {
      const values: unknown[] = [accountId];
      const where = ['account_id = $1'];
      for (const [column, value] of Object.entries(filters)) {
        if (value === undefined) continue; // not filtered, as in Prisma
        if (!COLUMN.test(column)) throw new Error(`Not a column name: ${column}`);
        if (value === null) where.push(`"${column}" IS NULL`);
        else where.push(`"${column}" = $${values.push(value)}`);
      }
      if (after) where.push(`(created_at, id) < ($${values.push(after.createdAt)}, $${values.push(after.id)})`);
      const sql = `SELECT * FROM "${table}" WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${values.push(take)}`;
      return (await readRows<Row>(db, sql, values)).map(fromRow);
    },
  };
}

/** What a cursor is signed for: the list, the account and the filter values. */
export function scopeOf(list: string, accountId: string, filters: Record<string, unknown>): string {
  return `${list}:${JSON.stringify([accountId, ...Object.values(filters).map((value) => value ?? null)])}`;
}
