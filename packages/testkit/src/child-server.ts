import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { until } from './webhook-receiver.js';

/** A server the test started as a child process (nginx, redis-server, a service instance). */
export interface ChildServer {
  child: ChildProcess;
  /** Everything it wrote so far (stdout and stderr). */
  output(): string;
  /** Sends the signal (SIGTERM by default) and resolves to the exit code once it is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns `command` and resolves once `ready` answers true; throws with its output when it exits
 * first or is not ready in time. A child still running when the test process exits is killed.
 */
export async function startChildServer(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; ready: () => Promise<boolean>; timeoutMs?: number },
): Promise<ChildServer> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const spawned = new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', resolve);
  });
  const orphan = () => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'));
  process.once('exit', orphan);
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    process.off('exit', orphan);
    if (gone()) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  };
  const failed = await spawned;
  if (failed) throw new Error(`${command} could not be started: ${failed.message}`);
  const ready = await until(
    async () => (gone() ? 'exited' : (await options.ready().catch(() => false)) ? 'ready' : undefined),
    options.timeoutMs ?? 60_000,
  ).catch(() => 'late');
  if (ready !== 'ready') {
    await stop('SIGKILL');
    throw new Error(`${command} ${ready === 'exited' ? 'exited' : 'was not ready in time'}:\n${output}`);
  }
  return { child, output: () => output, stop };
}

/** Whether something accepts TCP connections on the port of loopback. */
export function portAnswers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether the URL answers 200 (a health endpoint). */
export async function answers200(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  await response.arrayBuffer();
  return response.status === 200;
}
