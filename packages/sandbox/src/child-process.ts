import { fork, type ChildProcess } from 'node:child_process';
import { setPriority, tmpdir } from 'node:os';
import type { TaskReply } from './child.js';
import { runnableEntry } from './entry.js';

/** What a child needs of the pool's options. */
export interface ChildOptions {
  entry: string;
  cwd?: string;
  memoryMb: number;
  idleMs?: number;
  startTimeoutMs?: number;
  niceness?: number;
}

/** Variables a child may see: none of the deployment's own (database, keys, storage credentials). */
const CHILD_ENVIRONMENT = ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'LC_ALL', 'NODE_ENV', 'TZ'];

function childEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of CHILD_ENVIRONMENT) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/** Why the parent ended a child: it is never given another task after that. */
export type EndReason = 'memory' | 'timeout' | 'start' | 'closing';

/** One child process of the pool, from its start (compiling the entry first, from source) to its exit. */
export class SandboxChild {
  process: ChildProcess | undefined;
  readonly ready: Promise<void>;
  tasks = 0;
  endedFor: EndReason | undefined;
  exited = false;
  private stderrTail = '';
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: ChildOptions,
    private readonly onExit: (child: SandboxChild) => void,
  ) {
    this.ready = runnableEntry(options.entry).then(
      (entry) => this.start(entry),
      (error: Error) => {
        this.gone();
        throw new Error(`its entry could not be compiled: ${error.message}`);
      },
    );
    this.ready.catch(() => {}); // a job waiting on it reports it
  }

  private start(entry: string): Promise<void> {
    if (this.endedFor === 'closing') {
      this.gone();
      return Promise.reject(new Error('the sandbox was closed'));
    }
    const { options } = this;
    const child = fork(entry, [], {
      execArgv: [`--max-old-space-size=${Math.max(32, Math.floor(options.memoryMb / 2))}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: childEnvironment(),
      cwd: options.cwd ?? tmpdir(),
    });
    this.process = child;
    try {
      if (child.pid !== undefined) setPriority(child.pid, options.niceness ?? 10);
    } catch {
      // Not permitted here: the child runs at the parent's priority.
    }
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-4096);
    });
    const startTimeoutMs = options.startTimeoutMs ?? 60_000;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill('start');
        reject(new Error(`it did not start within ${startTimeoutMs} ms`));
      }, startTimeoutMs);
      const onMessage = (message: TaskReply) => {
        if (!('ready' in message)) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
      // A spawn that fails (no such file, no processes left) emits `error` and never `exit`.
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`it could not be started: ${error.message}`));
        if (child.pid === undefined) this.gone();
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`it exited while starting (${signal ?? `code ${code}`})`));
      });
    });
    child.once('exit', () => this.gone());
    return ready;
  }

  private gone(): void {
    if (this.exited) return;
    this.exited = true;
    clearTimeout(this.idleTimer);
    this.onExit(this);
  }

  /** A task begins: what the child writes to stderr from now on belongs to it. */
  beginTask(): void {
    this.stderrTail = '';
  }

  /** The end of what the child wrote to stderr during its task, on one line: for the operator's log, never for a client. */
  lastWords(): string {
    return this.stderrTail.trim().split('\n').slice(-3).join(' ').slice(-500);
  }

  heapExhausted(): boolean {
    return /heap out of memory|Reached heap limit|Allocation failed/i.test(this.stderrTail);
  }

  kill(reason: EndReason): void {
    this.endedFor ??= reason;
    if (!this.exited) this.process?.kill('SIGKILL');
  }

  /** Lets an idle child exit (no task is waiting for it); the pool has taken it out of its line. */
  retire(): void {
    if (this.exited || !this.process) return;
    if (this.process.connected) this.process.disconnect();
    else this.kill('closing');
  }

  /** Busy: keeps the parent alive; idle: lets it exit, and `retire` is called after `idleMs`. */
  hold(busy: boolean, retire?: () => void): void {
    clearTimeout(this.idleTimer);
    if (!this.process) return; // still starting: it is busy anyway
    const method = busy ? 'ref' : 'unref';
    this.process[method]();
    this.process.channel?.[method]();
    (this.process.stderr as unknown as { [k: string]: (() => void) | undefined } | null)?.[method]?.();
    if (!busy) {
      this.idleTimer = setTimeout(() => retire?.(), this.options.idleMs ?? 30_000);
      this.idleTimer.unref();
    }
  }
}
