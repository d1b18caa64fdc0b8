// An ordinary user runs the embedded PostgreSQL as themself: a checkout in their own home
// directory (0700) works, with no copies and no links. Run as root, the test plays that user.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const IS_ROOT = process.getuid?.() === 0;
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function uidOf(user: string): number {
  return Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
}

it.skipIf(!IS_ROOT || !uidOf('nobody'))(
  'an ordinary user starts it in a checkout in their own closed home directory',
  () => {
    const uid = uidOf('nobody');
    const gid = Number(spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).stdout.trim());
    const home = mkdtempSync(join(tmpdir(), 'ordinary-home-'));
    dirs.push(home);
    chownSync(home, uid, gid);
    chmodSync(home, 0o700);
    const script = join(home, 'start.mts');
    const dataDir = join(home, 'repo', '.data', 'postgres');
    const port = 20_000 + Math.floor(Math.random() * 10_000); // below the ephemeral ports (32768 and up)
    writeFileSync(
      script,
      `import pg from ${JSON.stringify(join(ROOT, 'packages/db/node_modules/pg/lib/index.js'))};
     import { startEmbeddedPostgres } from ${JSON.stringify(join(ROOT, 'packages/db/src/index.ts'))};
     const server = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: ${port}, durable: false });
     const client = new pg.Client({ connectionString: server.adminUrl });
     await client.connect();
     const { rows } = await client.query('SELECT current_user AS role');
     await client.end();
     await server.stop();
     console.log(JSON.stringify(rows[0]));`,
    );
    chownSync(script, uid, gid);
    const loader = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
    const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
    const command = `cd ${quote(home)} && HOME=${quote(home)} TMPDIR=${quote(home)} ${quote(process.execPath)} --import ${quote(loader)} ${quote(script)}`;
    const result = spawnSync('su', ['nobody', '-s', '/bin/sh', '-c', command], {
      encoding: 'utf8',
      timeout: 90_000,
      cwd: '/',
    });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('{"role":"postgres"}');
    expect(lstatSync(dataDir).isDirectory()).toBe(true); // in place: no link
    expect(lstatSync(dataDir).uid).toBe(uid);
  },
  120_000,
);
