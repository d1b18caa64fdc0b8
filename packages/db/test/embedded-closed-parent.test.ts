// As root the embedded PostgreSQL runs as the OS user postgres. A checkout in a directory others
// cannot enter (a home directory, 0700) must still work: the cluster then lives in a shared dir
// (DATA_DIR/postgres links to it) and programs that user cannot run are copied there once.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryAt } from '@platform/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, EmbeddedPostgresError } from '../src/embedded.js';
import { postgresOsUser } from '../src/os-user.js';
import { binariesFor, packagedBinaries } from '../src/postgres-binaries.js';
import { runToEnd } from '../src/postgres-process.js';

const IS_ROOT = process.getuid?.() === 0;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A directory only root may enter, as a home directory is. */
function closedDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'closed-parent-'));
  chmodSync(dir, 0o700);
  dirs.push(dir);
  return dir;
}

/** Where root keeps what the server's user must reach (root's, 0755), for this test only. */
function sharedDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-shared-'));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}

// Below the kernel's ephemeral ports (32768 and up), which outgoing connections take.
const port = () => 20_000 + Math.floor(Math.random() * 10_000);

describe.skipIf(!IS_ROOT)('the embedded PostgreSQL, started by root in a checkout others cannot enter', () => {
  it('starts, keeps its data in the shared dir behind DATA_DIR/postgres, and keeps it across starts', async () => {
    const dataDir = join(closedDir(), 'repo', '.data', 'postgres');
    const shared = sharedDir();
    const first = await startEmbeddedPostgres({ dataDir, port: port(), sharedDir: shared, durable: false });
    const cluster = readlinkSync(dataDir);
    try {
      expect(lstatSync(dataDir).isSymbolicLink()).toBe(true);
      expect(cluster.startsWith(join(shared, 'clusters'))).toBe(true);
      expect(statSync(cluster).uid).toBe(postgresOsUser().uid);
      await queryAt(first.adminUrl, "CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
    } finally {
      await first.stop();
    }
    const second = await startEmbeddedPostgres({
      dataDir,
      port: port(),
      sharedDir: shared,
      persistent: false,
      durable: false,
    });
    try {
      expect(readlinkSync(dataDir)).toBe(cluster);
      expect(await queryAt(second.adminUrl, 'SELECT note FROM kept')).toEqual([{ note: 'still here' }]);
    } finally {
      await second.stop();
    }
    expect(existsSync(cluster)).toBe(false); // persistent: false removes the cluster and the link
    expect(() => lstatSync(dataDir)).toThrow(/ENOENT/);
  }, 90_000);

  it('copies programs the postgres user cannot run to the shared dir once, where it can run them', () => {
    const packaged = join(closedDir(), 'native');
    mkdirSync(join(packaged, 'bin'), { recursive: true });
    mkdirSync(join(packaged, 'lib'));
    mkdirSync(join(packaged, 'share'));
    for (const program of ['initdb', 'postgres'])
      writeFileSync(join(packaged, 'bin', program), `#!/bin/sh\necho ${program} ran\n`, { mode: 0o700 });
    writeFileSync(join(packaged, 'lib', 'libpq.so.5.17'), 'library', { mode: 0o600 });
    symlinkSync('libpq.so.5.17', join(packaged, 'lib', 'libpq.so'));
    writeFileSync(join(packaged, 'lib', 'libpq.a'), 'static library: not needed to run');
    const fake = {
      version: '17.0.0-test',
      major: '17',
      root: packaged,
      initdb: join(packaged, 'bin', 'initdb'),
      postgres: join(packaged, 'bin', 'postgres'),
    };
    const shared = sharedDir();
    const user = postgresOsUser();

    const copied = binariesFor(user, shared, fake);
    expect(copied.root).toBe(join(shared, 'postgresql-17.0.0-test'));
    const ran = spawnSync(copied.postgres, [], { uid: user.uid, gid: user.gid, cwd: '/', encoding: 'utf8' });
    expect(ran.stdout).toBe('postgres ran\n');
    expect(readlinkSync(join(copied.root, 'lib', 'libpq.so'))).toBe('libpq.so.5.17');
    expect(statSync(join(copied.root, 'lib', 'libpq.so.5.17')).mode & 0o777).toBe(0o644);
    expect(existsSync(join(copied.root, 'lib', 'libpq.a'))).toBe(false);

    const complete = statSync(join(copied.root, '.complete')).mtimeMs;
    expect(binariesFor(user, shared, fake).root).toBe(copied.root);
    expect(statSync(join(copied.root, '.complete')).mtimeMs).toBe(complete); // not copied again
  });

  it('runs initdb and postgres as the postgres user from the copy of real programs it could not reach', async () => {
    const real = packagedBinaries();
    const unreachable = join(closedDir(), 'native');
    cpSync(real.root, unreachable, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !source.endsWith('.a'),
    });
    const version = `${real.version}-closed-parent-test`;
    const packaged = {
      ...real,
      version,
      root: unreachable,
      initdb: join(unreachable, 'bin', 'initdb'),
      postgres: join(unreachable, 'bin', 'postgres'),
    };
    const user = postgresOsUser();
    const copied = binariesFor(user, sharedDir(), packaged);
    expect(copied.root.endsWith(`postgresql-${version}`)).toBe(true);
    const dataDir = join(sharedDir(), 'cluster');
    mkdirSync(dataDir, { mode: 0o700 });
    chownSync(dataDir, user.uid, user.gid);
    await runToEnd(
      copied.initdb,
      [`--pgdata=${dataDir}`, '--auth=trust', '--username=postgres', '--locale=C'],
      user,
      () => {},
    );
    const output = await runToEnd(
      copied.postgres,
      ['--single', '-D', dataDir, 'postgres'],
      user,
      () => {},
      "SELECT 'ran from the copy' AS note;\n",
    );
    expect(output.join('\n')).toContain('ran from the copy');
  }, 60_000);

  it('refuses, in one line naming the fix, a shared dir others may write to', () => {
    const shared = sharedDir();
    chmodSync(shared, 0o777);
    const dataDir = join(closedDir(), '.data', 'postgres');
    return expect(startEmbeddedPostgres({ dataDir, port: port(), sharedDir: shared })).rejects.toThrow(
      /must be a directory owned by root that only root may write to .*chmod 755/,
    );
  });

  it('explains an existing cluster its owner cannot reach instead of moving it', async () => {
    const dataDir = join(closedDir(), '.data', 'postgres');
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dataDir, 'PG_VERSION'), '17\n');
    const user = postgresOsUser();
    chownSync(dataDir, user.uid, user.gid);
    const error = await startEmbeddedPostgres({ dataDir, port: port(), sharedDir: sharedDir() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EmbeddedPostgresError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `belongs to the OS user with uid ${user.uid}, which cannot enter .*: run as that user, move DATA_DIR where it can enter, or set DATABASE_URL`,
      ),
    );
    expect(realpathSync(dataDir)).toBe(dataDir);
  });
});
