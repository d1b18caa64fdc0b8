// tsx tools/schema-sql/src/cli.ts [--from <old schema>]  — prints the migration SQL for the schema
// folder prisma/schema/. --from and --schema each take a schema folder or a single schema file.
import { parseArgs } from 'node:util';
import { schemaSql } from './index.js';

const { values } = parseArgs({
  options: { from: { type: 'string' }, schema: { type: 'string', default: 'prisma/schema' } },
});
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('DATABASE_URL must point at a running PostgreSQL (any database; nothing is written).');
  process.exit(1);
}
process.stdout.write(schemaSql({ schemaPath: values.schema!, databaseUrl, fromSchemaPath: values.from }));
