import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { clusterLocation, type ClusterLocation } from './cluster-location.js';
import { EmbeddedPostgresBusyError, EmbeddedPostgresError } from './embedded-errors.js';
import { binariesFor, packagedBinaries, type PostgresBinaries } from './postgres-binaries.js';
import { problemsIn, runToEnd, startServer, type RunningServer } from './postgres-process.js';
import { scramSha256Verifier } from './scram.js';

/** The embedded server's superuser: used to create roles and databases, never by the services. */
export const EMBEDDED_SUPERUSER = 'postgres';

/** A login role of the embedded server: never a superuser. */
export interface EmbeddedRole {
  name: string;
  password: string;
  /** CREATEDB: the test harness clones a template database per test file. Default false. */
  createDatabases?: boolean;
}

export interface EmbeddedDatabase {
  /** Connection string of the `postgres` database as the superuser. */
  adminUrl: string;
  port: number;
  /** Connection string of `database`, as the superuser or as `role`. */
  urlFor(database: string, role?: Pick<EmbeddedRole, 'name' | 'password'>): string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  /**
   * The superuser's password, set at every start (in single-user mode, before the server listens),
   * so it need not be the one the data dir was made with. Default: a random one for this start.
   */
  superuserPassword?: string;
  /** Login roles created, or brought to these attributes and passwords, at every start. */
  roles?: EmbeddedRole[];
  /** Keep the data directory after stop (the dev server does, test runs do not). */
  persistent?: boolean;
  /** Tests turn durability off (no fsync) for speed; the dev server keeps it. */
  durable?: boolean;
  onLog?: (line: string) => void;
  /**
   * Stop the server and exit on SIGINT/SIGTERM/SIGHUP (default true, for scripts and test runs).
   * A server that shuts down gracefully itself passes false and stops it last.
   */
  stopOnSignals?: boolean;
  /** As root: where programs and clusters the server's OS user must reach go. Default EMBEDDED_SHARED_DIR. */
  sharedDir?: string;
}

export { EmbeddedPostgresError, EmbeddedPostgresBusyError } from './embedded-errors.js';
export { closedAncestor } from './os-user.js';

/** Where root keeps the programs and clusters the server's OS user must reach (see binariesFor, clusterLocation). */
export const EMBEDDED_SHARED_DIR = '/var/lib/platform-embedded-postgres';

/**
 * Every connection needs a password (SCRAM): the server listens on 127.0.0.1 only and has no Unix
 * socket, but other OS users reach 127.0.0.1 too. Rewritten at every start, so a data dir made
 * with another policy (older versions: `password`, a fixed password) is brought to this one.
 */
const PG_HBA = `# Written by @platform/db at every start of the embedded server: a password (SCRAM) for every connection.
local all all scram-sha-256
host all all 127.0.0.1/32 scram-sha-256
host all all ::1/128 scram-sha-256
`;

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Connection string of the embedded server on `port` (loopback only). */
export function embeddedUrl(port: number, database: string, role: Pick<EmbeddedRole, 'name' | 'password'>): string {
  return `postgresql://${encodeURIComponent(role.name)}:${encodeURIComponent(role.password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

/**
 * The server that holds `dataDir` (its `postmaster.pid` names a live postgres process), if any,
 * with the port it was started on.
 */
export function embeddedServerOf(dataDir: string): { pid: number; port: number } | undefined {
  let lines: string[];
  try {
    lines = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined; // no such process: a stale file
  }
  try {
    if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) return undefined; // the pid was reused
  } catch {
    // no /proc (macOS): the live pid has to do
  }
  return { pid, port };
}

/**
 * Sets the superuser's password and creates or updates the roles, in single-user mode (no
 * listener, no authentication: whoever may run the server on the data dir may do this), so
 * neither a data dir made with the old fixed password nor rotated secrets need the old password.
 * The passwords go in as SCRAM verifiers, never in plaintext.
 */
async function applyRoles(location: Location, superuserPassword: string, roles: EmbeddedRole[]): Promise<void> {
  const statements = [`ALTER ROLE ${EMBEDDED_SUPERUSER} WITH PASSWORD '${scramSha256Verifier(superuserPassword)}'`];
  for (const role of roles) {
    if (!ROLE_NAME.test(role.name) || role.name === EMBEDDED_SUPERUSER || role.name.startsWith('pg_'))
      throw new EmbeddedPostgresError(`Invalid role name "${role.name}".`);
    statements.push(
      `DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role.name}') THEN CREATE ROLE ${role.name}; END IF; END$$`,
      `ALTER ROLE ${role.name} WITH LOGIN NOSUPERUSER NOCREATEROLE NOREPLICATION NOBYPASSRLS ${role.createDatabases ? 'CREATEDB' : 'NOCREATEDB'} PASSWORD '${scramSha256Verifier(role.password)}'`,
    );
  }
  const args = [
    '--single',
    '-D',
    location.dir,
    '-c',
    'listen_addresses=',
    '-c',
    'unix_socket_directories=',
    'postgres',
  ];
  try {
    // Single-user mode reports a failed statement on its output but still exits 0. Its output is
    // not logged: it may quote a statement, with a password verifier in it.
    const problems = problemsIn(
      await runToEnd(location.binaries.postgres, args, location.user, () => {}, `${statements.join('\n')}\n`),
    );
    if (problems) throw new EmbeddedPostgresError(problems);
  } catch (error) {
    throw new EmbeddedPostgresError(
      `Could not set the roles of the embedded database in ${location.dataDir}: ${(error as Error).message}`,
    );
  }
}

interface Location extends ClusterLocation {
  dataDir: string;
  binaries: PostgresBinaries;
}

/**
 * initdb with `trust`: no password has to be handed over in a file, and the server never listens
 * with it, since pg_hba.conf is rewritten (SCRAM only) and the passwords set before every start.
 */
async function initialise(location: Location, log: (text: string) => void): Promise<void> {
  mkdirSync(dirname(location.dir), { recursive: true });
  mkdirSync(location.dir, { recursive: true, mode: 0o700 });
  if (location.user) chownSync(location.dir, location.user.uid, location.user.gid);
  const args = [
    `--pgdata=${location.dir}`,
    '--auth=trust',
    `--username=${EMBEDDED_SUPERUSER}`,
    '--encoding=UTF8',
    '--locale=C',
  ];
  try {
    await runToEnd(location.binaries.initdb, args, location.user, log);
  } catch (error) {
    throw new EmbeddedPostgresError(`initdb failed for ${location.dataDir}: ${(error as Error).message}`);
  }
}

function writeHba(location: Location): void {
  try {
    const hba = join(location.dir, 'pg_hba.conf');
    writeFileSync(hba, PG_HBA, { mode: 0o600 });
    chmodSync(hba, 0o600);
    if (location.user) chownSync(hba, location.user.uid, location.user.gid);
  } catch (error) {
    throw new EmbeddedPostgresError(
      `Could not prepare the embedded database in ${location.dataDir}: ${(error as Error).message}`,
    );
  }
}

/** Removes a cluster that is not to persist: its directory and, when moved out of reach, the link to it. */
function removeCluster(location: Location): void {
  rmSync(location.dir, { recursive: true, force: true });
  if (location.dir !== location.dataDir) rmSync(location.dataDir, { force: true });
}

/**
 * Starts a PostgreSQL server with the programs of the `embedded-postgres` package (no system
 * install needed). As root it runs as another OS user (PostgreSQL refuses root); see
 * clusterLocation and binariesFor for a checkout that user cannot reach.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  try {
    return await start(options);
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) throw error;
    // What none of the steps foresaw (a read-only /var/lib, a full disk): still one line, with a way out.
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL in ${resolve(options.dataDir)} could not be started (${message}): fix that, or set DATABASE_URL to a running PostgreSQL.`,
      { cause: error },
    );
  }
}

async function start(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.onLog ?? (() => {});
  const dataDir = resolve(options.dataDir);
  const held = embeddedServerOf(dataDir);
  if (held) throw new EmbeddedPostgresBusyError(dataDir, held.pid, held.port);
  const sharedDir = options.sharedDir ?? EMBEDDED_SHARED_DIR;
  const packaged = packagedBinaries();
  const cluster = clusterLocation(dataDir, sharedDir, packaged.major, log);
  const location: Location = {
    ...cluster,
    dataDir,
    binaries: cluster.user ? binariesFor(cluster.user, sharedDir, packaged) : packaged,
  };
  if (!existsSync(join(location.dir, 'PG_VERSION'))) await initialise(location, log);
  writeHba(location);
  const superuserPassword = options.superuserPassword ?? randomBytes(32).toString('base64url');
  await applyRoles(location, superuserPassword, options.roles ?? []);
  const args = [
    ...['-D', location.dir, '-p', String(options.port)],
    ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    ...(options.durable === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
  ];
  let server: RunningServer;
  try {
    server = await startServer(location.binaries.postgres, args, location.user, {
      log,
      stopOnSignals: options.stopOnSignals ?? true,
    });
  } catch (error) {
    const holder = embeddedServerOf(dataDir);
    if (holder) throw new EmbeddedPostgresBusyError(dataDir, holder.pid, holder.port);
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL in ${dataDir} did not start on port ${options.port}: ${(error as Error).message}`,
    );
  }
  const urlFor = (
    database: string,
    role: Pick<EmbeddedRole, 'name' | 'password'> = { name: EMBEDDED_SUPERUSER, password: superuserPassword },
  ) => embeddedUrl(options.port, database, role);
  const stop = async () => {
    await server.stop();
    if (options.persistent === false) removeCluster(location);
  };
  return { adminUrl: urlFor('postgres'), port: options.port, urlFor, stop };
}
