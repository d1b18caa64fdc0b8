import type { Db, SqlRunner } from '@platform/db';
import { applyMergePatch, changedPaths } from '@platform/http';
import type { TenantRepository } from './repository.js';

/** What a resource's patch is, declared once with the resource. */
export interface PatchDefinition<Row, View, Input, Columns> {
  /** Fields of the view that the input document does not have (`id`, `status`, `created_at`, ...). */
  readOnly: readonly string[];
  /** Validates the merged input document as a whole (required fields cannot be cleared). */
  validate: (value: unknown) => value is Input;
  toView: (row: Row) => View;
  /** The columns a complete input sets (absent optional fields become NULL). */
  toColumns: (input: Input) => Omit<Columns, 'updated_at'>;
}

/** One patch request, with the rules that depend on the record's state. */
export interface PatchRequest<Row> {
  accountId: string;
  id: string;
  patch: object;
  now: () => Date;
  /** Refuses a change of a row in its current state (an archived record: 409). */
  guard?: (row: Row) => void;
  /** Checks that need the changed paths, before the write (a profile in use keeps its team). */
  beforeWrite?: (changed: string[], row: Row) => Promise<void>;
  /** After the write, in the same transaction: the `*.updated` event with the changed paths, at the time written. */
  afterWrite?: (changed: string[], row: Row, at: Date) => Promise<unknown>;
  /** Write (and bump `updated_at`) even when nothing changed. */
  writeUnchanged?: boolean;
}

/**
 * A JSON merge patch on the current input document, validated as a whole and written under a row
 * lock (concurrent patches never lose fields). Nothing changed: nothing written, nothing announced.
 */
export async function patchUnderLock<
  Row extends { id: string; created_at: Date },
  View extends object,
  Input,
  Columns extends { updated_at: Date },
>(
  tx: Db | SqlRunner,
  repository: TenantRepository<Row, Columns>,
  options: PatchDefinition<Row, View, Input, Columns> & PatchRequest<Row>,
): Promise<View> {
  const { direct } = repository;
  if (!direct && !('$queryRaw' in tx))
    throw new Error(`${repository.table} has no directSql: patch it in a Prisma transaction.`);
  const row = direct
    ? await direct.lock(tx, options.accountId, options.id)
    : await repository.lock(tx as Db, options.accountId, options.id);
  if (!row) throw repository.notFound();
  options.guard?.(row);
  const before = options.toView(row);
  const current = Object.fromEntries(Object.entries(before).filter(([field]) => !options.readOnly.includes(field)));
  const input = applyMergePatch(current, options.patch, options.validate);
  const columns = options.toColumns(input);
  const changed = changedPaths(before, options.toView({ ...row, ...columns }));
  if (changed.length === 0 && !options.writeUnchanged) return before;
  await options.beforeWrite?.(changed, row);
  const at = options.now();
  const data = { ...columns, updated_at: at };
  const updated = direct
    ? await direct.update(tx, options.id, data)
    : await repository.model(tx as Db).update({ where: { id: options.id }, data: data as Columns });
  await options.afterWrite?.(changed, updated, at);
  return options.toView(updated);
}

/** Binds a resource's patch definition once: `patchProperty(tx, { accountId, id, patch, now, guard, afterWrite })`. */
export function definePatch<
  Row extends { id: string; created_at: Date },
  View extends object,
  Input,
  Columns extends { updated_at: Date },
>(
  repository: TenantRepository<Row, Columns>,
  definition: PatchDefinition<Row, View, Input, Columns>,
): (tx: Db | SqlRunner, request: PatchRequest<Row>) => Promise<View> {
  return (tx, request) => patchUnderLock(tx, repository, { ...definition, ...request });
}
