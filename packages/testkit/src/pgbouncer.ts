import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';
import { until } from './webhook-receiver.js';

export interface StartedPgBouncer {
  /** The upstream URL with the pooler's host and port: what the services get as DATABASE_URL. */
  url: string;
  output(): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Server connections per database and user: fewer than the clients', so that they are shared. */
  poolSize?: number;
  /** The sessions' TimeZone, set by the pooler on its server connections (`timezone=` of the entry). */
  timezone?: string;
}

const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;

/**
 * Debian's PgBouncer in transaction mode in front of the database of `upstreamUrl`, on a free
 * loopback port, authenticating its user (SCRAM) with the upstream password. As root it runs as
 * `nobody`: PgBouncer refuses to run as root.
 */
export async function startPgBouncer(upstreamUrl: string, options: PgBouncerOptions = {}): Promise<StartedPgBouncer> {
  const upstream = new URL(upstreamUrl);
  const user = decodeURIComponent(upstream.username);
  const database = decodeURIComponent(upstream.pathname.slice(1));
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  const entry = [
    `host=${upstream.hostname}`,
    `port=${upstream.port || 5432}`,
    `dbname=${database}`,
    `pool_size=${options.poolSize ?? 4}`,
    ...(options.timezone ? [`timezone=${options.timezone}`] : []),
  ].join(' ');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = ${entry}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = scram-sha-256',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'server_login_retry = 1',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  writeFileSync(join(dir, 'users.txt'), `${quote(user)} ${quote(decodeURIComponent(upstream.password))}\n`, {
    mode: 0o600,
  });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
    for (const path of [dir, join(dir, 'pgbouncer.ini'), join(dir, 'users.txt')]) chownSync(path, uid, -1);
  }
  const child = spawn('pgbouncer', [...(asRoot ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` },
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const stopNow = () => void (child.exitCode === null && child.kill('SIGTERM'));
  process.once('exit', stopNow);
  await until(async () => /listening on 127\.0\.0\.1/.test(output) || child.exitCode !== null, 10_000);
  if (child.exitCode !== null) throw new Error(`pgbouncer did not start:\n${output}`);
  const url = new URL(upstreamUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
