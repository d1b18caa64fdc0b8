import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_PEPPER } from './fixtures.js';
import { freePort } from './ports.js';
import { until } from './webhook-receiver.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

// One per test file: a database records the fingerprint of the first start's key and refuses others,
// and a test may start the services on its database more than once.
const WEBHOOK_SECRET_KEY = randomBytes(32).toString('hex');

export interface StartedServices {
  child: ChildProcess;
  /** The Redis the services use (a private one unless one was given; empty when `env` gives REDIS_SENTINELS). */
  redisUrl: string;
  ports: { property: number; agents: number; metrics: number };
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Sends the signal (SIGTERM by default) and resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `scripts/start.ts` as `pnpm start` runs it (both services and the worker in one process) on the
 * test run's database and on the Redis given — or, without one, on a private redis-server, so that
 * no other test file's worker takes this one's jobs — on free ports; resolves once both services listen.
 * With REDIS_SENTINELS in `env`, the services use Redis behind those sentinels and none is started.
 */
export async function startServices(options: {
  databaseUrl: string;
  redisUrl?: string;
  env?: Record<string, string>;
}): Promise<StartedServices> {
  const ports = { property: await freePort(), agents: await freePort(), metrics: await freePort() };
  const behindSentinel = Boolean(options.env?.REDIS_SENTINELS);
  const privateRedis = options.redisUrl === undefined && !behindSentinel ? await startPrivateRedis() : undefined;
  const redisUrl = options.redisUrl ?? privateRedis?.url ?? '';
  let output = '';
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/start.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: redisUrl,
      API_KEY_PEPPER: TEST_PEPPER,
      WEBHOOK_SECRET_KEY: WEBHOOK_SECRET_KEY,
      PROPERTY_PORT: String(ports.property),
      AGENT_PLATFORM_PORT: String(ports.agents),
      METRICS_PORT: String(ports.metrics),
      DATA_DIR: join(process.env.TMPDIR ?? '/tmp', `services-${randomBytes(4).toString('hex')}`),
      LOG_LEVEL: 'info',
      ...options.env,
    },
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await until(async () => output.includes('agent platform listening') || child.exitCode !== null, 60_000);
  if (child.exitCode !== null) {
    privateRedis?.stop();
    throw new Error(`the services did not start:\n${output}`);
  }
  // Just started on a busy machine, a service may still shed load (503 from its event-loop guard,
  // which every route passes): the caller gets it once both answer.
  for (const port of [ports.property, ports.agents])
    await until(async () => {
      const response = await fetch(`http://127.0.0.1:${port}/health/live`).catch(() => undefined);
      return response?.status === 200 || child.exitCode !== null ? true : undefined;
    }, 60_000);
  return {
    child,
    redisUrl,
    ports,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      const code = await exited;
      privateRedis?.stop();
      return code;
    },
  };
}

/** A redis-server of its own (loopback, no persistence) for one start of the services. */
async function startPrivateRedis(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const server = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: 'ignore' },
  );
  const stop = () => void (server.exitCode === null && server.kill('SIGTERM'));
  process.once('exit', stop);
  await until(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      }),
    10_000,
  );
  return { url: `redis://127.0.0.1:${port}`, stop };
}
