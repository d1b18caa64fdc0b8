import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';
import { schemaSql } from '@platform/schema-sql';
import { catalogDiff, catalogSnapshot } from './catalog.js';

// The schema folder: schemaSql reads every .prisma file in it, as `prisma generate` does.
const SCHEMA = fileURLToPath(new URL('../../../prisma/schema', import.meta.url));
// What Prisma cannot express (generated ranges, exclusion constraints): applied after the schema's SQL.
const CONSTRAINTS = fileURLToPath(new URL('../../../prisma/schema/constraints.sql', import.meta.url));

describe('migrations match the schema folder prisma/schema/', () => {
  let migrated: TestDatabase;
  let fromSchema: TestDatabase;

  beforeAll(async () => {
    migrated = await createTestDatabase(); // the template: every migration applied by our runner
    fromSchema = await createTestDatabase({ empty: true });
    await fromSchema.query(schemaSql({ schemaPath: SCHEMA, databaseUrl: fromSchema.url }));
    await fromSchema.query(readFileSync(CONSTRAINTS, 'utf8'));
  }, 120_000);

  afterAll(async () => {
    await migrated.drop();
    await fromSchema.drop();
  });

  it('has the same tables, columns, types, nullability, defaults, indexes and constraints', async () => {
    const diff = catalogDiff(await catalogSnapshot(migrated), await catalogSnapshot(fromSchema));
    expect(diff).toEqual({ onlyLeft: [], onlyRight: [] });
  });

  it('notices when the SQL and the schema disagree', async () => {
    await migrated.query('ALTER TABLE properties ADD COLUMN drift_probe integer');
    await migrated.query('ALTER TABLE properties ALTER COLUMN title DROP NOT NULL');
    const diff = catalogDiff(await catalogSnapshot(migrated), await catalogSnapshot(fromSchema));
    expect(diff.onlyLeft.some((line) => line.includes('properties.drift_probe'))).toBe(true);
    expect(
      diff.onlyLeft.some((line) => line.startsWith('column properties.title ') && line.includes('nullable=YES')),
    ).toBe(true);
  });
});
