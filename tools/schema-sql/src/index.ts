import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const PRISMA6_CLI = require.resolve('prisma/build/index.js');
const ADAPTER = require.resolve('@prisma/adapter-pg');

/**
 * Prints the SQL that turns an empty database (or the `from` schema) into `schemaPath`, using
 * the Prisma 6 CLI with its JS schema engine over a live PostgreSQL (the native migrate engine
 * cannot be downloaded on our machines). Dev and test only.
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

function copyForPrisma6(source: string, target: string): string {
  const schema = readFileSync(source, 'utf8')
    .replace(/datasource db \{([^}]*)\}/, (_m, body: string) => `datasource db {${body}  url = env("DATABASE_URL")\n}`)
    .replace(/generator client \{([^}]*)\}/, (_m, body: string) => `generator client {${body}  engineType = "client"\n}`);
  writeFileSync(target, schema);
  return target;
}
