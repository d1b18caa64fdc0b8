import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { stopWithThisProcess } from '@platform/db';
import { SANDBOX_SECRETS_FILE, sandboxSecret, type Config } from './config.js';
import { listening, pingLocalRedis } from './local-port.js';
import {
  evictionProblem,
  sentinelConnection,
  sentinelProblems,
  sentinelWhere,
  UNREADABLE_POLICY,
  type SentinelConnection,
} from './redis-sentinel.js';

/** ioredis's (and BullMQ's) options of one Redis server. */
export interface DirectConnection {
  host: string;
  port: number;
  username?: string;
  password?: string;
  tls?: object;
  maxRetriesPerRequest: null;
}

export interface ResolvedRedis {
  /** REDIS_URL or the local Redis's; under Sentinel `redis-sentinel://<sentinels>/<name>`, a label no client takes. */
  url: string;
  /** Given as it is to ioredis and BullMQ: one server, or the primary behind Sentinel. */
  connection: DirectConnection | SentinelConnection;
  close(): Promise<void>;
}

/** Where the Redis of a connection is, in words for log lines (no password). */
export function redisWhere(connection: ResolvedRedis['connection']): string {
  return 'sentinels' in connection ? sentinelWhere(connection) : `${connection.host}:${connection.port}`;
}

export class RedisUnavailableError extends Error {}

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
  if (config.redisSentinel) {
    for (const problem of await sentinelProblems(config.redisSentinel)) {
      if (problem.fatal) throw new RedisUnavailableError(problem.message);
      log(problem.message.startsWith('WARNING') ? problem.message : `WARNING: ${problem.message}`);
    }
    const connection = sentinelConnection(config.redisSentinel);
    const sentinels = connection.sentinels.map(({ host, port }) => `${host}:${port}`).join(',');
    return { url: `redis-sentinel://${sentinels}/${connection.name}`, connection, close: async () => {} };
  }
  let url = config.redisUrl;
  let local: LocalRedis | undefined;
  if (!url) {
    const password = localRedisPassword(config.dataDir);
    url = `redis://:${encodeURIComponent(password)}@127.0.0.1:${config.redisPort}`;
    if (!(await listening(config.redisPort))) {
      local = await runLocalRedis(join(config.dataDir, 'redis'), config.redisPort, password, log);
      log(
        `local redis-server started on 127.0.0.1:${config.redisPort} (data in ${join(config.dataDir, 'redis')}; password in ${join(config.dataDir, SANDBOX_SECRETS_FILE)})`,
      );
    } else {
      await checkLocalRedis(config, password);
    }
  }
  const connection = connectionOf(url);
  if (config.redisUrl) await checkRedisOfUrl(connection, log);
  return { url, connection, close: async () => local?.stop() };
}

interface LocalRedis {
  stop(): Promise<void>;
}

/**
 * The local redis-server, started again (same port, same AOF) when it stops on its own — killed,
 * or out of memory — for as long as this process runs; its AOF keeps the queued jobs.
 */
async function runLocalRedis(
  dir: string,
  port: number,
  password: string,
  log: (line: string) => void,
): Promise<LocalRedis> {
  let stopping = false;
  let child = await startRedisServer(dir, port, password);
  const restartAfterExit = (exited: ChildProcess) =>
    exited.once('exit', (code, signal) => {
      if (stopping) return;
      log(`the local redis-server stopped (${signal ?? `exit code ${code}`}); starting it again on 127.0.0.1:${port}`);
      const retry = async (): Promise<void> => {
        if (stopping) return;
        try {
          child = await startRedisServer(dir, port, password);
          restartAfterExit(child);
        } catch {
          setTimeout(() => void retry(), 1_000).unref();
        }
      };
      setTimeout(() => void retry(), 200).unref();
    });
  restartAfterExit(child);
  return {
    stop: async () => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** ioredis options of a `redis://` or `rediss://` URL; a URL that does not parse is refused in one line (it is never shown: it may hold a password). */
function connectionOf(url: string): DirectConnection {
  try {
    const parsed = new URL(url);
    return {
      host: parsed.hostname,
      port: Number(parsed.port || 6379),
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
      maxRetriesPerRequest: null,
    };
  } catch {
    throw new RedisUnavailableError(
      'REDIS_URL is not a valid URL: use redis://[user:password@]host:port (percent-encode special characters in the password).',
    );
  }
}

/** Something listens on REDIS_PORT already: it must be the local Redis of this DATA_DIR, with its password. */
async function checkLocalRedis(config: Config, password: string): Promise<void> {
  const ping = (withPassword?: string) => pingLocalRedis(config.redisPort, withPassword);
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
  // A process group of its own: a Ctrl-C in the terminal reaches only this process, whose
  // graceful shutdown still needs Redis and stops it last.
  const child = spawn('redis-server', ['-'], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    // drained for as long as it runs; the last lines say why it stopped
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 5));
  });
  child.stdin!.on('error', () => {}); // not found, or exited at once: reported below
  child.stdin!.end(`${conf}\n`);
  // Also on an abrupt exit (a second Ctrl-C skips the graceful close), and when this process is
  // killed with SIGKILL (the guard): never leave it orphaned.
  process.once('exit', () => child.kill('SIGTERM'));
  if (child.pid !== undefined) {
    const guard = stopWithThisProcess(child.pid, 'SIGTERM');
    child.once('exit', () => guard.release());
  }
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error) => {
      settled = true;
      if (error) reject(error);
      else resolve();
    };
    child.once('error', () =>
      settle(
        new RedisUnavailableError(
          'redis-server was not found: install it (e.g. apt-get install redis-server) or set REDIS_URL to a running Redis.',
        ),
      ),
    );
    const started = Date.now();
    const probe = async () => {
      if (settled) return;
      if (await listening(port)) return settle();
      if (child.exitCode !== null || Date.now() - started > 10_000) {
        const reason =
          output
            .filter((line) => /#/.test(line))
            .at(-1)
            ?.replace(/^.*# /, '') ?? 'no reason given';
        return settle(
          new RedisUnavailableError(
            `redis-server did not start on port ${port} (${reason}): set REDIS_PORT to a free port, or REDIS_URL to a running Redis.`,
          ),
        );
      }
      setTimeout(probe, 50);
    };
    void probe();
  });
  return child;
}

/** Why a Redis could not be used, in words (its own message for a refused password; no URL, no password). */
function connectProblem(where: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException).code;
  if (/WRONGPASS|NOAUTH|invalid password|invalid username/i.test(message))
    return `The Redis of REDIS_URL (${where}) refused its credentials (${message.split('\n')[0]}): fix the user and password in REDIS_URL.`;
  const reason =
    code === 'ECONNREFUSED'
      ? 'nothing listens there'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'unknown host'
        : message.split('\n')[0];
  return `Could not reach the Redis of REDIS_URL (${where}: ${reason}): start that Redis, or fix REDIS_URL.`;
}

/**
 * The Redis of REDIS_URL must answer, and with maxmemory-policy noeviction: BullMQ keeps delayed
 * retries and jobs in Redis for hours, and eviction would silently lose them. A Redis that
 * refuses CONFIG (some managed ones) cannot be checked: a warning then. The local one is always
 * started with noeviction.
 */
async function checkRedisOfUrl(connection: DirectConnection, log: (line: string) => void): Promise<void> {
  const where = `${connection.host}:${connection.port}`;
  const client = new Redis({
    ...connection,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 5_000,
  });
  let lastError: unknown; // connect() only says "Connection is closed."; the cause came as an event
  client.on('error', (error) => (lastError = error));
  try {
    try {
      await client.connect();
      await client.ping();
    } catch (error) {
      throw new RedisUnavailableError(connectProblem(where, lastError ?? error));
    }
    let policy: string | undefined;
    try {
      [, policy] = (await client.config('GET', 'maxmemory-policy')) as [string, string];
    } catch {
      // refused below
    }
    if (policy === undefined) log(UNREADABLE_POLICY);
    else if (policy !== 'noeviction')
      throw new RedisUnavailableError(evictionProblem(`The Redis of REDIS_URL (${where})`, policy));
  } finally {
    client.disconnect();
  }
}
