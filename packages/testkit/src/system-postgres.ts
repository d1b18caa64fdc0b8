import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './ports.js';
import { until } from './webhook-receiver.js';

/** Where Debian's PostgreSQL packages (postgresql-N, postgresql-client-N) put their programs. */
const INSTALLATIONS = '/usr/lib/postgresql';
const PROGRAMS = ['initdb', 'postgres', 'pg_dump', 'pg_restore', 'psql'];

export interface SystemPostgres {
  /** The major version of the server and of its tools. */
  major: string;
  /** The path of one of the installation's programs (`pg_dump`, `pg_restore`, `psql`). */
  program(name: string): string;
  port: number;
  /** The superuser's password, for PGPASSWORD (never in a command line). */
  adminPassword: string;
  /** A connection string as `role` (the superuser `admin` unless given), without the password. */
  url(database: string, role?: string): string;
  /** The same with the superuser's password in it (for this process's own clients). */
  adminUrl(database: string): string;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL server of the machine's own installation (the newest under /usr/lib/postgresql that
 * has the server and the client tools), for what needs pg_dump and pg_restore of the server's own
 * major version: the embedded package ships the server only. Loopback, no Unix socket, SCRAM
 * passwords, no fsync; as root it runs as the OS user postgres. The data is removed on stop.
 */
export async function startSystemPostgres(): Promise<SystemPostgres> {
  const majors = existsSync(INSTALLATIONS)
    ? readdirSync(INSTALLATIONS)
        .filter((major) => PROGRAMS.every((p) => existsSync(join(INSTALLATIONS, major, 'bin', p))))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0)
    throw new Error(
      `No PostgreSQL installation with ${PROGRAMS.join(', ')} under ${INSTALLATIONS}: install one (apt-get install postgresql).`,
    );
  const major = majors[0]!;
  const program = (name: string) => join(INSTALLATIONS, major, 'bin', name);
  const asRoot = process.getuid?.() === 0;
  const user = asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
      }
    : undefined;
  const root = mkdtempSync(join(tmpdir(), 'system-pg-'));
  if (user) chownSync(root, user.uid, user.gid);
  chmodSync(root, 0o700);
  const adminPassword = randomBytes(24).toString('base64url');
  const passwordFile = join(root, 'password');
  writeFileSync(passwordFile, `${adminPassword}\n`, { mode: 0o600 });
  if (user) chownSync(passwordFile, user.uid, user.gid);
  const run = { ...(user ?? {}), cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' } };
  const data = join(root, 'data');
  execFileSync(
    program('initdb'),
    ['-D', data, '-U', 'admin', '--auth=scram-sha-256', `--pwfile=${passwordFile}`, '-E', 'UTF8', '--no-sync'],
    { ...run, stdio: 'pipe' },
  );
  rmSync(passwordFile);
  const port = await freePort();
  const server = spawn(
    program('postgres'),
    [
      ...['-D', data, '-p', String(port)],
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
    ],
    { ...run, stdio: 'ignore' },
  );
  const kill = () => void (server.exitCode === null && server.kill('SIGINT'));
  process.once('exit', kill);
  const url = (database: string, role = 'admin') => `postgresql://${role}@127.0.0.1:${port}/${database}`;
  const adminUrl = (database: string) =>
    `postgresql://admin:${encodeURIComponent(adminPassword)}@127.0.0.1:${port}/${database}`;
  await until(async () => {
    if (server.exitCode !== null) throw new Error(`PostgreSQL ${major} exited with ${server.exitCode}`);
    const client = new pg.Client({ connectionString: adminUrl('postgres') });
    client.on('error', () => {});
    return client.connect().then(
      () => client.end().then(() => true),
      () => false,
    );
  }, 30_000);
  return {
    major,
    program,
    port,
    adminPassword,
    url,
    adminUrl,
    stop: async () => {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGINT'); // fast shutdown
        await exited;
      }
      process.off('exit', kill);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
