import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_PEPPER } from './fixtures.js';
import { freePort } from './ports.js';
import { until } from './webhook-receiver.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface StartedServices {
  child: ChildProcess;
  ports: { property: number; agents: number; metrics: number };
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Sends the signal (SIGTERM by default) and resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `scripts/start.ts` as `pnpm start` runs it (both services and the worker in one process) on the
 * test run's database and Redis, on free ports; resolves once both services listen.
 */
export async function startServices(options: { databaseUrl: string; redisUrl: string; env?: Record<string, string> }): Promise<StartedServices> {
  const ports = { property: await freePort(), agents: await freePort(), metrics: await freePort() };
  let output = '';
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/start.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      API_KEY_PEPPER: TEST_PEPPER,
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
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
  if (child.exitCode !== null) throw new Error(`the services did not start:\n${output}`);
  return {
    child,
    ports,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      return exited;
    },
  };
}
