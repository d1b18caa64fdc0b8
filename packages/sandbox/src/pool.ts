import { SandboxError, type SandboxFailure } from './errors.js';
import type { TaskReply } from './child.js';
import { SandboxChild } from './child-process.js';
import { residentBytes } from './memory.js';
import type { Task } from './tasks.js';

export interface SandboxOptions {
  /** The module the children run; it calls `serveTasks` with its task handlers. TypeScript is compiled first (`runnableEntry`). */
  entry: string;
  /** The children's working directory (default: the system's temporary directory). */
  cwd?: string;
  /** Children at most; further tasks wait in line. */
  processes: number;
  /** Resident memory a child may use, in MiB; beyond it, the child and its task are ended (`memory`). V8's heap gets half of it. */
  memoryMb: number;
  /** A task's deadline unless the call gives one. */
  timeoutMs: number;
  /** Tasks that may wait for a child; beyond it a task is refused at once (`busy`). */
  maxWaiting?: number;
  /** Tasks of one group (`RunOptions.group`: an account) waiting or running at once; beyond it, that group's next is `busy`. */
  maxPerGroup?: number;
  /** How long a task may wait for a child before it is given up (`busy`); default: as long as it takes. */
  maxWaitMs?: number;
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
  /** Told what a child that ended abnormally, or could not start, wrote last (stderr): for the operator's log, never for a client. */
  onChildTrouble?: (line: string) => void;
}

export interface TaskSample {
  task: string;
  ms: number;
  peakRssBytes: number;
  outcome: 'ok' | SandboxFailure;
}

export interface RunOptions {
  timeoutMs?: number;
  /** Whose task it is (an account), for `maxPerGroup`. */
  group?: string;
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
  group: string | undefined;
  /** Times it was handed back because its child was lost to something not its own. */
  handovers: number;
  waitTimer: NodeJS.Timeout | undefined;
  settle(outcome: { output: unknown } | SandboxError): void;
}

/** A child lost before or around a task not through the task's fault is replaced this often before the task gives up. */
const MAX_HANDOVERS = 2;

/**
 * A pool of child processes that run tasks on untrusted input. Each task has a deadline and its
 * child a memory limit, read from /proc while it works (Linux; elsewhere only V8's heap limit
 * holds); an error thrown anywhere in the child, a signal, an exhausted heap, a limit or a deadline
 * ends that task with a `SandboxError` and that child only, which is never given another task.
 * The children see a short list of the parent's variables only, run at a lower priority and are
 * replaced after a number of tasks. Tasks beyond `processes` wait in line (at most `maxWaiting`,
 * `maxPerGroup` of one group, for `maxWaitMs`).
 */
export function createSandbox(options: SandboxOptions): Sandbox {
  const children = new Set<SandboxChild>();
  const idle: SandboxChild[] = [];
  const waiting: Job[] = [];
  const groups = new Map<string, number>();
  let closed = false;

  const failure = (kind: SandboxFailure, message: string, task: string, code?: string) =>
    new SandboxError(kind, message, task, code);

  /** An idle child leaves the line, then exits. */
  function retire(child: SandboxChild): void {
    const at = idle.indexOf(child);
    if (at >= 0) idle.splice(at, 1);
    child.retire();
  }

  function pump(): void {
    while (!closed && waiting.length > 0) {
      const child =
        idle.pop() ??
        (children.size < options.processes
          ? (() => {
              const started = new SandboxChild(options, (gone) => {
                children.delete(gone);
                const at = idle.indexOf(gone);
                if (at >= 0) idle.splice(at, 1);
                pump();
              });
              children.add(started);
              return started;
            })()
          : undefined);
      if (!child) return;
      void dispatch(child, waiting.shift()!);
    }
  }

  /** A job its child was lost around, through no fault of its own: to the front of the line, or given up. */
  function handBack(job: Job, why: string): void {
    if (closed) return job.settle(failure('closed', 'The sandbox is closed.', job.task));
    if (++job.handovers > MAX_HANDOVERS)
      return job.settle(failure('unavailable', `The sandbox could not run the task: ${why}.`, job.task));
    waiting.unshift(job);
    pump();
  }

  async function dispatch(child: SandboxChild, job: Job): Promise<void> {
    clearTimeout(job.waitTimer);
    child.hold(true);
    try {
      await child.ready;
    } catch (error) {
      options.onChildTrouble?.(`sandbox: a process for ${job.task} did not start: ${(error as Error).message}`);
      return handBack(job, 'a process did not start');
    }
    if (child.exited || child.endedFor) return handBack(job, 'its process ended before the task began');
    child.beginTask();
    const started = performance.now();
    const pid = child.process!.pid!;
    const id = child.tasks + 1;
    let peak = 0;
    let crash: string | undefined;
    let foreignCrash = false;
    const deadline = setTimeout(() => child.kill('timeout'), job.timeoutMs);
    const limit = options.memoryMb * 1024 * 1024;
    const measure = () => {
      const rss = residentBytes(pid);
      if (rss === null) return;
      peak = Math.max(peak, rss);
      if (rss > limit) child.kill('memory');
    };
    measure();
    const poll = setInterval(measure, options.memoryPollMs ?? 20);

    const done = (outcome: { output: unknown } | SandboxError | 'handed back') => {
      clearTimeout(deadline);
      clearInterval(poll);
      child.process!.off('message', onMessage);
      child.process!.off('exit', onExit);
      if (!child.exited) peak = Math.max(peak, residentBytes(pid) ?? 0);
      if (outcome === 'handed back') return handBack(job, 'its process was ended by an error of an earlier task');
      options.onTask?.({
        task: job.task,
        ms: performance.now() - started,
        peakRssBytes: peak,
        outcome: outcome instanceof SandboxError ? outcome.kind : 'ok',
      });
      job.settle(outcome);
    };
    const onMessage = (reply: TaskReply) => {
      if ('crash' in reply) {
        // A crash while another task's leftovers ran (a timer, a callback) is not this task's.
        if (reply.id === id) crash = reply.crash;
        else foreignCrash = true;
        return;
      }
      if (!('id' in reply) || reply.id !== id) return;
      child.tasks += 1;
      done(
        reply.ok
          ? { output: reply.output }
          : failure(reply.refused ? 'refused' : 'failed', reply.message, job.task, reply.code),
      );
      // A child that was being ended (its answer crossed the kill), is due for replacement or belongs to a closed pool is not used again.
      if (child.endedFor || closed || child.tasks >= (options.tasksPerChild ?? 100)) {
        child.retire();
      } else {
        child.hold(false, () => retire(child));
        idle.push(child);
        pump();
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (child.endedFor === 'closing')
        return done(failure('closed', 'The sandbox was closed while the task ran.', job.task));
      if (foreignCrash && crash === undefined && !child.endedFor) return done('handed back');
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      if (child.lastWords())
        options.onChildTrouble?.(`sandbox: ${job.task} ended its process (${how}): ${child.lastWords()}`);
      if (child.endedFor === 'timeout')
        return done(failure('timeout', `did not finish within ${Math.round(job.timeoutMs / 1000)} s`, job.task));
      if (child.endedFor === 'memory' || child.heapExhausted())
        return done(failure('memory', `needed more than the memory limit of ${options.memoryMb} MiB`, job.task));
      done(failure('crashed', crash ? `stopped with an error: ${crash}` : `stopped (${how})`, job.task));
    };
    child.process!.on('message', onMessage);
    child.process!.once('exit', onExit);
    try {
      child.process!.send({ id, task: job.task, input: job.input });
    } catch {
      child.kill('closing');
    }
  }

  return {
    run<I, O>(task: Task<I, O>, input: I, runOptions: RunOptions = {}): Promise<O> {
      if (closed) return Promise.reject(failure('closed', 'The sandbox is closed.', task.name));
      if (waiting.length >= (options.maxWaiting ?? 64))
        return Promise.reject(
          failure('busy', `${waiting.length} tasks are waiting for the sandbox already.`, task.name),
        );
      const group = runOptions.group;
      if (group !== undefined && (groups.get(group) ?? 0) >= (options.maxPerGroup ?? Infinity)) {
        return Promise.reject(
          failure('busy', `${groups.get(group)} tasks of the same account are in the sandbox already.`, task.name),
        );
      }
      if (group !== undefined) groups.set(group, (groups.get(group) ?? 0) + 1);
      return new Promise<O>((resolve, reject) => {
        let settled = false;
        const job: Job = {
          task: task.name,
          input,
          timeoutMs: runOptions.timeoutMs ?? options.timeoutMs,
          group,
          handovers: 0,
          waitTimer: undefined,
          settle(outcome) {
            if (settled) return;
            settled = true;
            clearTimeout(job.waitTimer);
            if (group !== undefined) {
              const left = (groups.get(group) ?? 1) - 1;
              if (left > 0) groups.set(group, left);
              else groups.delete(group);
            }
            if (outcome instanceof SandboxError) reject(outcome);
            else resolve(outcome.output as O);
          },
        };
        if (options.maxWaitMs !== undefined) {
          job.waitTimer = setTimeout(() => {
            const at = waiting.indexOf(job);
            if (at < 0) return;
            waiting.splice(at, 1);
            job.settle(
              failure('busy', `The task waited ${Math.round(options.maxWaitMs! / 1000)} s for the sandbox.`, task.name),
            );
          }, options.maxWaitMs);
        }
        waiting.push(job);
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.settle(failure('closed', 'The sandbox is closed.', job.task));
      await Promise.all(
        [...children].map(async (child) => {
          child.kill('closing'); // before it starts, too
          await child.ready.catch(() => {});
          if (child.exited) return;
          const exit = new Promise<void>((resolve) => child.process!.once('exit', () => resolve()));
          child.kill('closing');
          await exit;
        }),
      );
    },
    get size() {
      return children.size;
    },
  };
}
