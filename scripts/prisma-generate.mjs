// Runs `prisma generate` on the schema folder prisma/schema/ (named in packages/db/prisma.config.ts).
// Generation needs no schema engine, but the Prisma CLI insists on finding one; a placeholder
// file satisfies that check where the engine cannot be downloaded.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const dir = join(tmpdir(), 'prisma-placeholder');
  mkdirSync(dir, { recursive: true });
  const placeholder = join(dir, 'schema-engine');
  if (!existsSync(placeholder)) writeFileSync(placeholder, '', { mode: 0o755 });
  env.PRISMA_SCHEMA_ENGINE_BINARY = placeholder;
}
const result = spawnSync(
  'pnpm',
  ['--filter', '@platform/db', 'exec', 'prisma', 'generate', '--config', 'prisma.config.ts'],
  {
    stdio: 'inherit',
    env,
  },
);
process.exit(result.status ?? 1);
