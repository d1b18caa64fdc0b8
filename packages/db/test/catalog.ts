import type { TestDatabase } from '@platform/testkit';

/**
 * What a schema comparison looks at: enums, columns (type, nullability, default), indexes and
 * constraints of the public schema, without Prisma's bookkeeping table.
 */
export async function catalogSnapshot(db: TestDatabase): Promise<string[]> {
  const enums = await db.query<{ line: string }>(`
    SELECT 'enum ' || t.typname || ' = ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS line
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = 'public' GROUP BY t.typname`);
  const columns = await db.query<{ line: string }>(`
    SELECT 'column ' || table_name || '.' || column_name || ' ' || udt_name || ' ' ||
           coalesce(character_maximum_length::text, '') || ' ' || coalesce(datetime_precision::text, '') ||
           ' nullable=' || is_nullable || ' default=' || coalesce(column_default, '') AS line
    FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`);
  const indexes = await db.query<{ line: string }>(`
    SELECT 'index ' || indexdef AS line FROM pg_indexes
    WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`);
  const constraints = await db.query<{ line: string }>(`
    SELECT 'constraint ' || c.conrelid::regclass || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) AS line
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE n.nspname = 'public' AND c.conrelid::regclass::text <> '_prisma_migrations'`);
  return [...enums, ...columns, ...indexes, ...constraints].map((row) => row.line).sort();
}

/** Lines present on one side only. */
export function catalogDiff(a: string[], b: string[]): { onlyLeft: string[]; onlyRight: string[] } {
  const left = new Set(a);
  const right = new Set(b);
  return { onlyLeft: a.filter((x) => !right.has(x)), onlyRight: b.filter((x) => !left.has(x)) };
}
