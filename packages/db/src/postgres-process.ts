import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { EmbeddedPostgresError } from './embedded-errors.js';
import { stopWithThisProcess } from './orphan-guard.js';
import type { OsUser } from './os-user.js';

/**
 * Runs one of the PostgreSQL programs (as `user` when given), from `/`, which every user may
 * enter. `detached`: in a process group of its own, so a Ctrl-C in the terminal reaches only this
 * process, which stops the server itself once nothing needs it any more.
 */
export function spawnPostgresProgram(
  file: string,
  args: string[],
  user: OsUser | undefined,
  detached = false,
): ChildProcess {
  return spawn(file, args, {
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    cwd: '/',
    detached,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: postgresEnvironment(),
  });
}

/**
 * Only what the programs need: the process's environment holds the deployment's secrets (key
 * pepper, webhook key, SMTP and S3 credentials), which the database's OS user must not read.
 */
function postgresEnvironment(): NodeJS.ProcessEnv {
  const kept = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR'].flatMap((name) =>
    process.env[name] === undefined ? [] : [[name, process.env[name]]],
  );
  return { ...Object.fromEntries(kept), LC_MESSAGES: 'C' };
}

/** Why a program could not be run at all (spawn's error: EACCES, ENOENT), in words. */
export function notRunnable(file: string, error: Error): EmbeddedPostgresError {
  const code = (error as NodeJS.ErrnoException).code ?? error.message;
  return new EmbeddedPostgresError(`Could not run ${file} (${code}).`);
}

/** The FATAL/PANIC/ERROR lines of PostgreSQL's output, joined: the reason it gave. */
export function problemsIn(lines: string[]): string {
  return lines
    .filter((line) => /\b(FATAL|PANIC|ERROR):/.test(line))
    .join(' ')
    .trim();
}

/** Collects a child's output as lines (the last 50) and hands each chunk to `log`. */
export function collectLines(child: ChildProcess, log: (text: string) => void): string[] {
  const lines: string[] = [];
  const take = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    lines.push(...text.split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 50));
    log(text);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return lines;
}

/** Runs a PostgreSQL program to its end; rejects with its own words when it fails. */
export async function runToEnd(
  file: string,
  args: string[],
  user: OsUser | undefined,
  log: (text: string) => void,
  input?: string,
): Promise<string[]> {
  const child = spawnPostgresProgram(file, args, user);
  const lines = collectLines(child, log);
  child.stdin!.on('error', () => {}); // a program that stops early closes its stdin
  child.stdin!.end(input ?? '');
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) => reject(notRunnable(file, error)));
    child.once('close', resolve);
  });
  if (code !== 0)
    throw new EmbeddedPostgresError(problemsIn(lines) || lines.slice(-3).join(' ') || `${file} exited with ${code}`);
  return lines;
}

export interface RunningServer {
  stop(): Promise<void>;
}

const stopOnSignal = new Set<() => Promise<void>>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** On a signal, the servers that asked for it are stopped and the process exits, as the signal would have ended it. */
function onSignal(signal: NodeJS.Signals): void {
  void Promise.allSettled([...stopOnSignal].map((stop) => stop())).then(() =>
    process.exit(128 + constants.signals[signal]),
  );
}

function watchSignals(stop: () => Promise<void>, watch: boolean): () => void {
  if (!watch) return () => {};
  if (stopOnSignal.size === 0) for (const signal of SIGNALS) process.on(signal, onSignal);
  stopOnSignal.add(stop);
  return () => {
    stopOnSignal.delete(stop);
    if (stopOnSignal.size === 0) for (const signal of SIGNALS) process.removeListener(signal, onSignal);
  };
}

/**
 * Starts `postgres` and resolves once it accepts connections. It is stopped (fast shutdown) by
 * `stop()`, on SIGINT/SIGTERM/SIGHUP when `stopOnSignals`, and at the latest when this process
 * exits: it is never left running without its owner.
 */
export async function startServer(
  postgres: string,
  args: string[],
  user: OsUser | undefined,
  options: { log: (text: string) => void; stopOnSignals: boolean },
): Promise<RunningServer> {
  const child = spawnPostgresProgram(postgres, args, user, true);
  child.stdin!.end();
  const lines = collectLines(child, options.log);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const killAtExit = () => child.kill('SIGINT');
  process.once('exit', killAtExit);
  // A SIGKILLed parent runs no exit handler: the guard stops the server then.
  const guard = child.pid === undefined ? undefined : stopWithThisProcess(child.pid, 'SIGINT');
  void exited.then(() => guard?.release());
  let unwatch = () => {};
  const stop = async () => {
    unwatch();
    process.removeListener('exit', killAtExit);
    if (child.pid === undefined) return; // it never ran
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
  };
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) => reject(notRunnable(postgres, error)));
    child.once('close', () =>
      reject(new EmbeddedPostgresError(problemsIn(lines) || lines.slice(-3).join(' ') || 'the server exited')),
    );
    const ready = (chunk: Buffer) => {
      if (!chunk.toString('utf8').includes('ready to accept connections')) return;
      child.stderr!.removeListener('data', ready);
      resolve();
    };
    child.stderr!.on('data', ready);
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  unwatch = watchSignals(stop, options.stopOnSignals);
  return { stop };
}
