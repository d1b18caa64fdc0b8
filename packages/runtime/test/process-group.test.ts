// `pnpm start` as a terminal and a process manager stop it: the signal goes to the whole process
// group (pnpm, node and anything else in it), on a second start on the same DATA_DIR with the
// embedded PostgreSQL and the local redis-server. And when it is killed with SIGKILL, its servers
// must not outlive it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '@platform/testkit';
import { cleanUp, startEnv } from './startup-process.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
afterAll(cleanUp);

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `pnpm start` in a process group of its own (as a terminal runs it), once both services listen. */
async function pnpmStart(env: Record<string, string>): Promise<Started> {
  let output = '';
  const child = spawn('pnpm', ['start'], {
    cwd: ROOT,
    env: { ...env, LOG_LEVEL: 'debug' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  await until(async () => output.includes('agent platform listening') || child.exitCode !== null, 90_000);
  if (child.exitCode !== null) throw new Error(`pnpm start did not start:\n${output}`);
  return { child, output: () => output, exited };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const spawnSyncText = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8' });

describe.each(['SIGINT', 'SIGTERM'] as const)('%s to the process group of pnpm start', (signal) => {
  it('stops in order and exits 0 within 5 s, also on the second start on the same DATA_DIR, with nothing left running', async () => {
    const env = await startEnv({});
    for (const round of [1, 2]) {
      const started = await pnpmStart(env);
      const postgres = Number(readFileSync(join(env.DATA_DIR!, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
      const at = Date.now();
      process.kill(-started.child.pid!, signal);
      const { code } = await started.exited;
      const took = Date.now() - at;
      const log = started.output();
      expect({ round, code, fast: took < 5_000 }).toEqual({ round, code: 0, fast: true });
      expect(log).not.toMatch(/"level":(50|60)/); // no error or fatal line
      expect(log).not.toMatch(/\n\s+at |ELIFECYCLE|killed by timeout/);
      // One "listening" line per service, ours with the docs URL (none of Fastify's own).
      const listening = log.split('\n').filter((line) => /listening/i.test(line));
      expect(listening.map((line) => /"msg":"([^"]+) listening on http:\/\/[^ ]+ \(docs: /.exec(line)?.[1])).toEqual([
        'property-marketing service',
        'agent platform',
      ]);
      const closed = [...log.matchAll(/shutdown: (.+?) closed/g)].map((m) => m[1]);
      const order = ['delivery worker', 'database client', 'redis', 'database'].map((step) => closed.indexOf(step));
      expect(order.every((index) => index >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      await until(async () => !alive(postgres), 5_000);
    }
  }, 240_000);
});

describe('SIGKILL of the service process', () => {
  it('stops its embedded PostgreSQL and redis-server, and the next start on the same DATA_DIR is clean', async () => {
    const env = await startEnv({});
    const first = await pnpmStart(env);
    const postgres = Number(readFileSync(join(env.DATA_DIR!, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const processes = spawnSyncText('ps', ['-eo', 'pid=,pgid=,args=']).split('\n');
    const redis = Number(
      processes
        .find((line) => line.includes('redis-server') && line.includes(`:${env.REDIS_PORT}`))
        ?.trim()
        .split(/\s+/)[0],
    );
    expect(alive(postgres) && alive(redis)).toBe(true);
    process.kill(-first.child.pid!, 'SIGKILL'); // pnpm and node alike, no handler runs
    await first.exited;
    await until(async () => !alive(postgres) && !alive(redis), 10_000);
    const second = await pnpmStart(env);
    // Ready once it answers 200 (just started on a busy machine, it may shed load with 503 at first).
    const ready = await until(async () => {
      const response = await fetch(`http://127.0.0.1:${env.PROPERTY_PORT}/health/ready`);
      return response.status === 200 ? response : undefined;
    }, 30_000);
    expect(ready.status).toBe(200);
    process.kill(-second.child.pid!, 'SIGTERM');
    expect((await second.exited).code).toBe(0);
  }, 240_000);
});
