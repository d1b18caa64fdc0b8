import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { SandboxError, type SandboxFailure } from './errors.js';
import type { TaskReply, TaskRequest } from './child.js';
import { runnableEntry } from './entry.js';
import { residentBytes } from './memory.js';
import type { Task } from './tasks.js';

export interface SandboxOptions {
  /** The module the children run; it calls `serveTasks` with its task handlers. TypeScript is compiled first (`runnableEntry`). */
  entry: string;
  /** The children's working directory. */
  cwd?: string;
  /** Children at most; further tasks wait in line. */
  processes: number;
  /** Resident memory a child may use, in MiB; beyond it, the child and its task are ended (`memory`). V8's heap gets half of it. */
  memoryMb: number;
  /** A task's deadline unless the call gives one. */
  timeoutMs: number;
  /** Tasks that may wait for a child; beyond it a task is refused at once (`busy`). */
  maxWaiting?: number;
  /** A child is replaced after this many tasks, so that whatever a decoder leaks stays bounded. */
  tasksPerChild?: number;
  /** An idle child exits after this long. */
  idleMs?: number;
  /** How long a child may take to load its entry. */
  startTimeoutMs?: number;
  /** How often a busy child's memory is read. */
  memoryPollMs?: number;
  /** Nice value of the children (0 to 19): the services' own threads get the processor first. */
  niceness?: number;
  /** Told of each task's end: how long it ran, the most memory its child was seen to hold, and how it ended. */
  onTask?: (sample: TaskSample) => void;
}

export interface TaskSample {
  task: string;
  ms: number;
  peakRssBytes: number;
  outcome: 'ok' | SandboxFailure;
}

export interface RunOptions {
  timeoutMs?: number;
}

export interface Sandbox {
  /** Runs the task in a child; rejects with a `SandboxError` however it fails. */
  run<I, O>(task: Task<I, O>, input: I, options?: RunOptions): Promise<O>;
  /** Ends every child and refuses the waiting tasks (`closed`). */
  close(): Promise<void>;
  /** Children alive now (for tests and metrics). */
  readonly size: number;
}

interface Job {
  task: string;
  input: unknown;
  timeoutMs: number;
  resolve(output: unknown): void;
  reject(error: SandboxError): void;
}

/** Variables a child may see: none of the deployment's secrets (database, keys, storage credentials). */
const CHILD_ENVIRONMENT = ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'LC_ALL', 'NODE_ENV', 'TZ'];

function childEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of CHILD_ENVIRONMENT) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

class Child {
  process!: ChildProcess;
  readonly ready: Promise<void>;
  tasks = 0;
  job: Job | undefined;
  /** Why the parent ended it, when it did. */
  endedFor: 'memory' | 'timeout' | 'start' | undefined;
  exited = false;
  private stderrTail = '';
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: SandboxOptions,
    private readonly onExit: (child: Child) => void,
  ) {
    this.ready = runnableEntry(options.entry).then(
      (entry) => this.start(entry),
      (error: Error) => {
        this.exited = true;
        queueMicrotask(() => this.onExit(this));
        throw new Error(`its entry could not be compiled: ${error.message}`);
      },
    );
    this.ready.catch(() => {}); // a job waiting on it reports it
  }

  private start(entry: string): Promise<void> {
    const options = this.options;
    const heapMb = Math.max(32, Math.floor(options.memoryMb / 2));
    this.process = fork(entry, [], {
      execArgv: [`--max-old-space-size=${heapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: childEnvironment(),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    try {
      if (this.process.pid !== undefined) setPriority(this.process.pid, options.niceness ?? 10);
    } catch {
      // Not permitted here: the child runs at the parent's priority.
    }
    this.process.stderr?.setEncoding('utf8');
    this.process.stderr?.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-4096);
    });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.endedFor = 'start';
        this.kill();
        reject(new Error(`did not start within ${options.startTimeoutMs ?? 60_000} ms`));
      }, options.startTimeoutMs ?? 60_000);
      const onMessage = (message: TaskReply) => {
        if (!('ready' in message)) return;
        clearTimeout(timer);
        this.process.off('message', onMessage);
        resolve();
      };
      this.process.on('message', onMessage);
      this.process.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited while starting (${signal ?? `code ${code}`}): ${this.lastWords()}`));
      });
    });
    this.process.on('error', () => {}); // followed by 'exit'
    this.process.once('exit', () => {
      this.exited = true;
      clearTimeout(this.idleTimer);
      this.onExit(this);
    });
    return ready;
  }

  newId(): number {
    return this.nextId++;
  }

  send(request: TaskRequest): void {
    this.process.send(request);
  }

  /** The end of what the child wrote to stderr, on one line. */
  lastWords(): string {
    return this.stderrTail.trim().split('\n').slice(-3).join(' ').slice(-500);
  }

  heapExhausted(): boolean {
    return /heap out of memory|Reached heap limit|Allocation failed/i.test(this.stderrTail);
  }

  kill(): void {
    if (!this.exited) this.process?.kill('SIGKILL');
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

/**
 * A pool of child processes that run tasks on untrusted input. Each task has a deadline and its
 * child a memory limit, read from /proc while it works (Linux; elsewhere only V8's heap limit
 * holds); an error thrown anywhere in the child, a signal, an exhausted heap, a limit or a deadline
 * ends that task with a `SandboxError` and that child only. The children see none of the parent's
 * secrets (a short list of variables), run at a lower priority and are replaced after a number of
 * tasks. Tasks beyond `processes` wait in line, at most `maxWaiting` of them.
 */
export function createSandbox(options: SandboxOptions): Sandbox {
  const children = new Set<Child>();
  const idle: Child[] = [];
  const waiting: Job[] = [];
  let closed = false;

  const start = () => {
    const child = new Child(options, (gone) => {
      children.delete(gone);
      const at = idle.indexOf(gone);
      if (at >= 0) idle.splice(at, 1);
      pump();
    });
    children.add(child);
    return child;
  };

  /** An idle child leaves the line, then exits. */
  function retire(child: Child): void {
    const at = idle.indexOf(child);
    if (at >= 0) idle.splice(at, 1);
    if (!child.exited) child.process?.disconnect();
  }

  function pump(): void {
    while (!closed && waiting.length > 0) {
      const child = idle.pop() ?? (children.size < options.processes ? start() : undefined);
      if (!child) return;
      void dispatch(child, waiting.shift()!);
    }
  }

  async function dispatch(child: Child, job: Job): Promise<void> {
    child.job = job;
    child.hold(true);
    try {
      await child.ready;
    } catch (error) {
      child.job = undefined;
      job.reject(new SandboxError('crashed', `The sandbox could not start a process: ${(error as Error).message}`, job.task));
      return;
    }
    if (child.exited) {
      child.job = undefined;
      return void job.reject(new SandboxError('crashed', `The sandbox's process ended before the task began: ${child.lastWords()}`, job.task));
    }
    const started = performance.now();
    const id = child.newId();
    let peak = 0;
    let crashMessage: string | undefined;
    const pid = child.process.pid!;
    const deadline = setTimeout(() => {
      child.endedFor = 'timeout';
      child.kill();
    }, job.timeoutMs);
    const limit = options.memoryMb * 1024 * 1024;
    const measure = () => {
      const rss = residentBytes(pid);
      if (rss === null) return;
      peak = Math.max(peak, rss);
      if (rss > limit) {
        child.endedFor = 'memory';
        child.kill();
      }
    };
    measure();
    const poll = setInterval(measure, options.memoryPollMs ?? 20);

    const settle = (outcome: { output: unknown } | SandboxError) => {
      clearTimeout(deadline);
      clearInterval(poll);
      if (!child.exited) peak = Math.max(peak, residentBytes(pid) ?? 0);
      child.process.off('message', onMessage);
      child.process.off('exit', onExit);
      child.job = undefined;
      const failure = outcome instanceof SandboxError ? outcome : undefined;
      options.onTask?.({ task: job.task, ms: performance.now() - started, peakRssBytes: peak, outcome: failure?.kind ?? 'ok' });
      if (failure) job.reject(failure);
      else job.resolve((outcome as { output: unknown }).output);
    };
    const onMessage = (reply: TaskReply) => {
      if ('crash' in reply) {
        crashMessage = reply.crash; // the exit follows
        return;
      }
      if (!('id' in reply) || reply.id !== id) return;
      child.tasks += 1;
      if (reply.ok) settle({ output: reply.output });
      else settle(new SandboxError(reply.refused ? 'refused' : 'failed', reply.message, job.task, reply.code));
      if (closed || child.tasks >= (options.tasksPerChild ?? 100)) {
        child.process.disconnect(); // replaced by a fresh one on the next task
      } else {
        child.hold(false, () => retire(child));
        idle.push(child);
        pump();
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      settle(abnormalEnd(child, job, code, signal, crashMessage));
    };
    child.process.on('message', onMessage);
    child.process.once('exit', onExit);
    try {
      child.send({ id, task: job.task, input: job.input });
    } catch (error) {
      child.kill();
      crashMessage = `the task could not be handed over: ${(error as Error).message}`;
    }
  }

  function abnormalEnd(child: Child, job: Job, code: number | null, signal: NodeJS.Signals | null, crash: string | undefined): SandboxError {
    if (child.endedFor === 'timeout') return new SandboxError('timeout', `did not finish within ${Math.round(job.timeoutMs / 1000)} s`, job.task);
    if (child.endedFor === 'memory' || child.heapExhausted()) return new SandboxError('memory', `needed more than the memory limit of ${options.memoryMb} MiB`, job.task);
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    return new SandboxError('crashed', crash ? `stopped with an error: ${crash}` : `stopped (${how}): ${child.lastWords() || 'no message'}`, job.task);
  }

  return {
    run<I, O>(task: Task<I, O>, input: I, runOptions: RunOptions = {}): Promise<O> {
      if (closed) return Promise.reject(new SandboxError('closed', 'The sandbox is closed.', task.name));
      if (waiting.length >= (options.maxWaiting ?? 64)) {
        return Promise.reject(new SandboxError('busy', `${waiting.length} tasks are waiting for the sandbox already.`, task.name));
      }
      return new Promise<O>((resolve, reject) => {
        waiting.push({ task: task.name, input, timeoutMs: runOptions.timeoutMs ?? options.timeoutMs, resolve: resolve as (output: unknown) => void, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new SandboxError('closed', 'The sandbox is closed.', job.task));
      const exits = [...children].map(async (child) => {
        await child.ready.catch(() => {});
        if (child.exited) return;
        const exit = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
        child.kill();
        await exit;
      });
      await Promise.all(exits);
    },
    get size() {
      return children.size;
    },
  };
}
