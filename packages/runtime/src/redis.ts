import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { SANDBOX_SECRETS_FILE, sandboxSecret, type Config } from './config.js';

export interface ResolvedRedis {
  url: string;
  connection: { host: string; port: number; username?: string; password?: string; tls?: object; maxRetriesPerRequest: null };
  close(): Promise<void>;
}

export class RedisUnavailableError extends Error {}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The local redis-server's password, generated on first use into `DATA_DIR/sandbox-secrets.json`. */
export function localRedisPassword(dataDir: string): string {
  return sandboxSecret(dataDir, 'embedded_redis_password');
}

/**
 * `REDIS_URL` when set; else a local redis-server child process (AOF on, noeviction, data under
 * DATA_DIR/redis), reused when `pnpm start` already runs it. The local one listens on 127.0.0.1
 * and requires the password from the sandbox secrets (other OS users reach 127.0.0.1 too).
 */
export async function openRedis(config: Config, log: (line: string) => void = () => {}): Promise<ResolvedRedis> {
  let url = config.redisUrl;
  let child: ChildProcess | undefined;
  if (!url) {
    const password = localRedisPassword(config.dataDir);
    url = `redis://:${encodeURIComponent(password)}@127.0.0.1:${config.redisPort}`;
    if (!(await listening(config.redisPort))) {
      child = await startRedisServer(join(config.dataDir, 'redis'), config.redisPort, password);
      log(`local redis-server started on 127.0.0.1:${config.redisPort} (data in ${join(config.dataDir, 'redis')}; password in ${join(config.dataDir, SANDBOX_SECRETS_FILE)})`);
    } else {
      await checkLocalRedis(config, password);
    }
  }
  const parsed = new URL(url);
  const connection = {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
  await warnUnlessNoEviction(connection, log);
  return {
    url,
    connection,
    close: async () => {
      child?.kill('SIGTERM');
    },
  };
}

/** Something listens on REDIS_PORT already: it must be the local Redis of this DATA_DIR, with its password. */
async function checkLocalRedis(config: Config, password: string): Promise<void> {
  const ping = async (withPassword?: string): Promise<string> => {
    const client = new Redis({ host: '127.0.0.1', port: config.redisPort, password: withPassword, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    try {
      await client.connect();
      return await client.ping();
    } catch (error) {
      return (error as Error).message;
    } finally {
      client.disconnect();
    }
  };
  const problem =
    (await ping()) === 'PONG'
      ? 'it requires no password'
      : await ping(password).then((answer) => (answer === 'PONG' ? undefined : answer));
  if (problem) {
    throw new RedisUnavailableError(
      `Port ${config.redisPort} is in use, but not by the local Redis of ${config.dataDir} (${problem}): it may be one started by an older version or for another DATA_DIR; stop it, or set REDIS_PORT to a free port.`,
    );
  }
}

/** A value for redis.conf (double-quoted; backslash and quote escaped). */
const confValue = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

async function startRedisServer(dir: string, port: number, password: string): Promise<ChildProcess> {
  // The AOF holds the queued jobs: this user's only (also a dir made by an older version).
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  // The configuration goes in on stdin: a password in the arguments would be visible to every
  // user in the process list, and a config file would be one more copy of it.
  const conf = [
    `port ${port}`,
    'bind 127.0.0.1',
    'protected-mode yes',
    `requirepass ${confValue(password)}`,
    `dir ${confValue(dir)}`,
    'appendonly yes',
    'maxmemory-policy noeviction',
    'save ""',
  ].join('\n');
  const child = spawn('redis-server', ['-'], { stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin!.on('error', () => {}); // not found, or exited at once: reported below
  child.stdin!.end(`${conf}\n`);
  // Also on an abrupt exit (a second Ctrl-C skips the graceful close): never leave it orphaned.
  process.once('exit', () => child.kill('SIGTERM'));
  await new Promise<void>((resolve, reject) => {
    child.once('error', () =>
      reject(new RedisUnavailableError('redis-server was not found: install it (e.g. apt-get install redis-server) or set REDIS_URL to a running Redis.')),
    );
    const started = Date.now();
    const probe = async () => {
      if (await listening(port)) return resolve();
      if (child.exitCode !== null || Date.now() - started > 10_000) return reject(new RedisUnavailableError(`redis-server did not start on port ${port}.`));
      setTimeout(probe, 50);
    };
    void probe();
  });
  return child;
}

/** BullMQ keeps delayed retries in Redis for hours: eviction would silently lose them. */
async function warnUnlessNoEviction(connection: ResolvedRedis['connection'], log: (line: string) => void): Promise<void> {
  const client = new Redis({ ...connection, lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const [, policy] = (await client.config('GET', 'maxmemory-policy')) as [string, string];
    if (policy !== 'noeviction') log(`WARNING: Redis maxmemory-policy is ${policy}; set it to noeviction, or queued webhook retries can be lost.`);
  } catch {
    log('WARNING: could not read the Redis maxmemory-policy (CONFIG GET refused); make sure it is noeviction.');
  } finally {
    client.disconnect();
  }
}
