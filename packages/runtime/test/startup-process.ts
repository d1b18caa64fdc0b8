// Runs `pnpm start`'s entry (scripts/start.ts) in a child process, as a newcomer would, and helpers
// for what its start-up needs: free ports, a private redis-server, temp dirs.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distinctFreePorts, freePort } from '@platform/testkit';

export { freePort };

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface StartResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A TCP listener on `port` that is neither PostgreSQL nor Redis: it hangs up at once. */
export async function occupy(port: number): Promise<Server> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const cleanups: (() => Promise<void> | void)[] = [];

/** Runs every clean-up registered so far (for afterAll). */
export async function cleanUp(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) await step();
}

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A private redis-server (no password, loopback) with this maxmemory-policy, stopped by `cleanUp`. */
export async function startRedis(policy: string): Promise<string> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', policy],
    { stdio: 'ignore' },
  );
  cleanups.push(() => stop(child));
  for (let tries = 0; tries < 100; tries++) {
    const taken = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(true));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
    });
    if (taken) return `redis://127.0.0.1:${port}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('redis-server did not start');
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The environment of a start on different free ports with its own DATA_DIR; `env` adds to it or
 * overrides it. METRICS_PORT is 0 (no metrics listener) unless `metrics` asks for a port of its own.
 */
export async function startEnv(
  env: Record<string, string | undefined>,
  options: { metrics?: boolean } = {},
): Promise<Record<string, string>> {
  const [postgres, redis, property, agents, metrics] = (await distinctFreePorts(options.metrics ? 5 : 4)).map(String);
  const base: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    DATA_DIR: join(tempDir('startup-data-'), '.data'),
    EMBEDDED_PG_PORT: postgres,
    REDIS_PORT: redis,
    PROPERTY_PORT: property,
    AGENT_PLATFORM_PORT: agents,
    METRICS_PORT: metrics ?? '0',
    LOG_LEVEL: 'warn',
    ...env,
  };
  return Object.fromEntries(Object.entries(base).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * `tsx scripts/start.ts` with exactly this environment, until it exits, or until `until` matches
 * its output (then it is stopped with SIGTERM and its exit awaited).
 */
export function runStart(
  env: Record<string, string>,
  options: { until?: RegExp; timeoutMs?: number } = {},
): Promise<StartResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result: StartResult = { code: null, stdout: '', stderr: '' };
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 100_000);
  let stopping = false;
  const watch = () => {
    if (stopping || !options.until?.test(result.stdout + result.stderr)) return;
    stopping = true;
    child.kill('SIGTERM');
  };
  child.stdout.on('data', (chunk) => ((result.stdout += chunk), watch()));
  child.stderr.on('data', (chunk) => ((result.stderr += chunk), watch()));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ ...result, code });
    }),
  );
}
