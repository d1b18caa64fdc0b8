/** A column of a text table: its header and how a row shows in it. */
export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
}

/** An aligned text table (two spaces between columns, trailing spaces trimmed); `empty` when there are no rows. */
export function renderTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[], empty: string): string {
  if (rows.length === 0) return empty;
  const cells = [columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => c.value(row)))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  return cells
    .map((line) =>
      line
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A timestamp as an operator reads it: `2026-11-27 12:00 UTC`, or `-` for none. */
export const when = (iso: string | null): string => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '-');
