import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Config } from './config.js';

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

/**
 * `REDIS_URL` when set; else a local redis-server child process (AOF on, noeviction, data under
 * DATA_DIR/redis), reused when `pnpm start` already runs it.
 */
export async function openRedis(config: Config, log: (line: string) => void = () => {}): Promise<ResolvedRedis> {
  let url = config.redisUrl;
  let child: ChildProcess | undefined;
  if (!url) {
    url = `redis://127.0.0.1:${config.redisPort}`;
    if (!(await listening(config.redisPort))) {
      child = await startRedisServer(join(config.dataDir, 'redis'), config.redisPort);
      log(`local redis-server started on port ${config.redisPort} (data in ${join(config.dataDir, 'redis')})`);
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

async function startRedisServer(dir: string, port: number): Promise<ChildProcess> {
  mkdirSync(dir, { recursive: true });
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--maxmemory-policy', 'noeviction', '--save', ''];
  const child = spawn('redis-server', args, { stdio: 'ignore' });
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
