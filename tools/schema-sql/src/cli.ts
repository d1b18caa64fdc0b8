// pnpm schema:sql [--from <old schema>]  — prints the migration SQL for prisma/schema.prisma.
import { parseArgs } from 'node:util';
import { schemaSql } from './index.js';

const { values } = parseArgs({ options: { from: { type: 'string' }, schema: { type: 'string', default: 'prisma/schema.prisma' } } });
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('DATABASE_URL must point at a running PostgreSQL (any database; nothing is written).');
  process.exit(1);
}
process.stdout.write(schemaSql({ schemaPath: values.schema!, databaseUrl, fromSchemaPath: values.from }));
