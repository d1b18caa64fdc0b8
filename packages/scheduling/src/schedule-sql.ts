import type { Db } from '@platform/db';

// The columns every scheduled table has (appointments, evaluation sessions): id, account_id, status
// (ScheduleStatus), starts_at, ends_at, during (generated), sequence, history, confirmed_by,
// confirmed_at, cancelled_by, cancel_reason, cancelled_at, completed_at, updated_at.

/** A scheduled table's name, checked once: it is written into SQL. */
export function scheduleTable(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a table name: ${name}`);
  return name;
}

export const OPEN_STATUSES = ['proposed', 'confirmed'] as const;

const updated = (rows: unknown[]) => rows.length === 1;

export async function confirmSql(tx: Db, table: string, id: string, by: string, at: Date): Promise<boolean> {
  return updated(
    await tx.$queryRawUnsafe(
      `UPDATE "${table}" SET status = 'confirmed', confirmed_by = $2, confirmed_at = $3, updated_at = $3 WHERE id = $1 AND status = 'proposed' RETURNING id`,
      id,
      by,
      at,
    ),
  );
}

export async function completeSql(tx: Db, table: string, id: string, at: Date): Promise<boolean> {
  return updated(
    await tx.$queryRawUnsafe(
      `UPDATE "${table}" SET status = 'completed', completed_at = $2, updated_at = $2 WHERE id = $1 AND status = 'confirmed' RETURNING id`,
      id,
      at,
    ),
  );
}

/** Cancelled by a side, with a reason code; the calendar sequence goes up (the `.ics` becomes a CANCEL). */
export async function cancelSql(
  tx: Db,
  table: string,
  id: string,
  by: string,
  reason: string,
  at: Date,
): Promise<boolean> {
  return updated(
    await tx.$queryRawUnsafe(
      `UPDATE "${table}" SET status = 'cancelled', cancelled_by = $2, cancel_reason = $3, cancelled_at = $4, sequence = sequence + 1, updated_at = $4
       WHERE id = $1 AND status IN ('proposed', 'confirmed') RETURNING id`,
      id,
      by,
      reason,
      at,
    ),
  );
}

/** A new time: the old one goes into the history, the confirmation is undone (back to `proposed`), the sequence goes up. */
export async function rescheduleSql(
  tx: Db,
  table: string,
  id: string,
  start: Date,
  end: Date,
  at: Date,
): Promise<boolean> {
  return updated(
    await tx.$queryRawUnsafe(
      `UPDATE "${table}" SET
         history = history || jsonb_build_array(jsonb_build_object('starts_at', starts_at, 'ends_at', ends_at, 'until', $4::timestamptz)),
         starts_at = $2, ends_at = $3, status = 'proposed', confirmed_by = NULL, confirmed_at = NULL, sequence = sequence + 1, updated_at = $4
       WHERE id = $1 AND status IN ('proposed', 'confirmed') RETURNING id`,
      id,
      start,
      end,
      at,
    ),
  );
}

/** The status of a row (for the 409's message). */
export async function statusOf(db: Db, table: string, id: string): Promise<string | undefined> {
  const rows = await db.$queryRawUnsafe<{ status: string }[]>(
    `SELECT status::text AS status FROM "${table}" WHERE id = $1`,
    id,
  );
  return rows[0]?.status;
}

/**
 * An open row of the table that overlaps the range and shares the given column values (the
 * participant of a violated exclusion constraint), other than `exceptId`.
 */
export async function overlappingId(
  db: Db,
  table: string,
  match: Record<string, string>,
  start: Date,
  end: Date,
  exceptId?: string,
  open: readonly string[] = OPEN_STATUSES,
): Promise<string | undefined> {
  const columns = Object.keys(match);
  for (const column of columns) scheduleTable(column);
  const conditions = columns.map((column, i) => `"${column}" = $${i + 5}`);
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM "${table}" WHERE during && tstzrange($1, $2, '[)') AND status::text = ANY($4::text[]) AND id <> $3
       ${conditions.map((c) => `AND ${c}`).join(' ')} ORDER BY starts_at LIMIT 1`,
    start,
    end,
    exceptId ?? '',
    [...open],
    ...columns.map((column) => match[column]),
  );
  return rows[0]?.id;
}
