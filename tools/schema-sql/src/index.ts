import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const PRISMA6_CLI = require.resolve('prisma/build/index.js');
const ADAPTER = require.resolve('@prisma/adapter-pg');

/**
 * Prints the SQL that turns an empty database (or the `from` schema) into `schemaPath`, using
 * the Prisma 6 CLI with its JS schema engine over a live PostgreSQL (the native migrate engine
 * cannot be downloaded on our machines). Dev and test only. Either path may be a schema folder
 * (every `.prisma` file in it and its subfolders, as Prisma reads it) or a single schema file.
 */
export function schemaSql(options: { schemaPath: string; databaseUrl: string; fromSchemaPath?: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'schema-sql-'));
  try {
    const to = copyForPrisma6(options.schemaPath, join(dir, 'to.prisma'));
    const from = options.fromSchemaPath ? copyForPrisma6(options.fromSchemaPath, join(dir, 'from.prisma')) : undefined;
    const config = join(dir, 'prisma.config.mjs');
    writeFileSync(
      config,
      `import { PrismaPg } from ${JSON.stringify(ADAPTER)};
export default {
  engine: 'js',
  experimental: { adapter: true },
  schema: ${JSON.stringify(to)},
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
};
`,
    );
    const fromArgs = from ? ['--from-schema-datamodel', from] : ['--from-empty'];
    const result = spawnSync(
      process.execPath,
      [PRISMA6_CLI, 'migrate', 'diff', ...fromArgs, '--to-schema-datamodel', to, '--script', '--config', config],
      { env: { ...process.env, DATABASE_URL: options.databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1' }, encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`prisma migrate diff failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes the schema at `source` (a folder or one file) as one file that the Prisma 6 CLI accepts. */
function copyForPrisma6(source: string, target: string): string {
  const schema = readSchema(source)
    .replace(/datasource db \{([^}]*)\}/, (_m, body: string) => `datasource db {${body}  url = env("DATABASE_URL")\n}`)
    .replace(
      /generator client \{([^}]*)\}/,
      (_m, body: string) => `generator client {${body}  engineType = "client"\n}`,
    );
  writeFileSync(target, schema);
  return target;
}

/** The schema's text: the file itself, or the folder's `.prisma` files concatenated in path order. */
function readSchema(path: string): string {
  if (!statSync(path).isDirectory()) return readFileSync(path, 'utf8');
  const files = schemaFiles(path);
  if (files.length === 0) throw new Error(`no .prisma files in ${path}`);
  return files.map((file) => readFileSync(file, 'utf8')).join('\n');
}

function schemaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (statSync(path).isDirectory()) return schemaFiles(path);
      return entry.name.endsWith('.prisma') ? [path] : [];
    });
}
