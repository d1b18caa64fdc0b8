import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmdirSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { EmbeddedPostgresError } from './embedded-errors.js';
import { ensureRootOnlyDir } from './postgres-binaries.js';
import { closedTo, isRoot, postgresOsUser, type OsUser } from './os-user.js';

/** Where a cluster's files are, and the OS user its programs run as. */
export interface ClusterLocation {
  /** The directory PostgreSQL is given: the data dir, or the directory it links to. */
  dir: string;
  /** As root: the OS user that owns the cluster (PostgreSQL refuses to run as root). */
  user?: OsUser;
}

/** A data dir made by another major version of PostgreSQL cannot be opened by this one. */
function checkVersion(dataDir: string, dir: string, major: string): void {
  let version: string;
  try {
    version = readFileSync(join(dir, 'PG_VERSION'), 'utf8').trim();
  } catch {
    return;
  }
  if (version === major) return;
  throw new EmbeddedPostgresError(
    `The embedded database in ${dataDir} was made by PostgreSQL ${version}, but this version runs PostgreSQL ${major}: move it away to start with an empty one (mv ${dataDir} ${dataDir}-pg${version}), upgrade it with pg_upgrade, or set DATABASE_URL to a PostgreSQL ${version} server.`,
  );
}

/** `dataDir` itself, or the directory it is a link to (a cluster moved out of reach of a closed parent). */
function followLink(dataDir: string): string {
  if (!isLink(dataDir)) return dataDir;
  try {
    return realpathSync(dataDir);
  } catch {
    throw new EmbeddedPostgresError(
      `${dataDir} links to ${readlinkSync(dataDir)}, which does not exist: restore that directory, or remove the link to start with an empty database.`,
    );
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Where the cluster of `dataDir` lives. Not as root: in `dataDir`, run as this process's user. As
 * root the programs run as another OS user: the owner of an existing cluster, else `postgres`.
 * When that user cannot reach `dataDir` (a checkout in a home directory, mode 0700), a new cluster
 * is made in `sharedDir/clusters` instead and `dataDir` becomes a link to it, so `dataDir` still
 * says where the data is and it persists across starts. Nothing is ever moved or deleted here.
 */
export function clusterLocation(
  dataDir: string,
  sharedDir: string,
  major: string,
  log: (line: string) => void,
): ClusterLocation {
  const dir = followLink(dataDir);
  checkVersion(dataDir, dir, major);
  if (!isRoot()) return { dir };
  if (existsSync(join(dir, 'PG_VERSION'))) {
    const { uid, gid } = statSync(dir);
    if (uid === 0)
      throw new EmbeddedPostgresError(
        `The embedded database in ${dataDir} is owned by root, and PostgreSQL does not run as root: chown -R postgres:postgres ${dir}, or set DATABASE_URL.`,
      );
    const closed = closedTo(dir, { uid, gid });
    if (closed) {
      throw new EmbeddedPostgresError(
        `The embedded database in ${dataDir} belongs to the OS user with uid ${uid}, which cannot enter ${closed}: run as that user, move DATA_DIR where it can enter, or set DATABASE_URL.`,
      );
    }
    return { dir, user: { uid, gid } };
  }
  const user = postgresOsUser();
  const closed = closedTo(dir, user);
  if (!closed) return { dir, user };
  if (dir !== dataDir)
    throw new EmbeddedPostgresError(
      `${dataDir} links to ${dir}, which the OS user postgres cannot reach (${closed} is closed to it): remove the link, or set DATABASE_URL.`,
    );
  if (existsSync(dataDir)) {
    try {
      rmdirSync(dataDir); // empty: the link takes its place
    } catch {
      throw new EmbeddedPostgresError(
        `${dataDir} holds files but no database, and the OS user postgres cannot reach it (${closed} is closed to it): move it away and start again, or set DATABASE_URL.`,
      );
    }
  }
  const clusters = join(sharedDir, 'clusters');
  ensureRootOnlyDir(sharedDir);
  ensureRootOnlyDir(clusters);
  const target = mkdtempSync(
    join(
      clusters,
      `${dataDir
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-/, '')
        .slice(-60)}-`,
    ),
  );
  chownSync(target, user.uid, user.gid);
  chmodSync(target, 0o700);
  mkdirSync(dirname(dataDir), { recursive: true });
  symlinkSync(target, dataDir);
  log(
    `As root the embedded PostgreSQL runs as the OS user postgres, which cannot enter ${closed}: its data lives in ${target}, linked from ${dataDir}.`,
  );
  return { dir: target, user };
}
