/**
 * How a task ended without a result:
 * - `refused`: the task judged its input unusable (`TaskRefusal`), with a message for the client;
 * - `failed`: the task threw another error (a decoder's error, a bug);
 * - `crashed`: the child process ended while the task ran (an error thrown in a callback, a signal);
 * - `memory`: the child went over its memory limit (resident memory, or V8's heap) and was ended;
 * - `timeout`: the task ran past its deadline and the child was ended;
 * - `busy`: too many tasks were waiting (or of its group), or it waited too long; nothing was started;
 * - `unavailable`: no child could run it (none started, or each was lost to something else);
 * - `closed`: the sandbox was closed.
 * Only `crashed`, `memory` and `timeout` are the task's own doing (`abnormal`).
 */
export type SandboxFailure =
  'refused' | 'failed' | 'crashed' | 'memory' | 'timeout' | 'busy' | 'unavailable' | 'closed';

export class SandboxError extends Error {
  override name = 'SandboxError';
  constructor(
    readonly kind: SandboxFailure,
    message: string,
    readonly task: string,
    /** A refusal's code (`TaskRefusal.code`). */
    readonly code?: string,
  ) {
    super(message);
  }

  /** Whether the child process was ended by this task (it went wrong in a way a caller may count). */
  get abnormal(): boolean {
    return this.kind === 'crashed' || this.kind === 'memory' || this.kind === 'timeout';
  }
}
