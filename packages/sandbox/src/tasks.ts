/**
 * A task's name with the types of its input and output: the caller imports this (light), the
 * sandbox's entry imports the implementation (heavy: decoders, renderers) through `implement`.
 * Inputs and outputs cross the process boundary by structured clone (`serialization: 'advanced'`):
 * plain data, Buffers and Dates; files are passed as paths inside a workspace (`withWorkspace`).
 */
export interface Task<I, O> {
  readonly name: string;
  /** Never set: carries the types. */
  readonly types?: { input: I; output: O };
}

export function task<I, O>(name: string): Task<I, O> {
  return { name };
}

/** A task as the sandbox's entry serves it. */
export interface TaskHandler {
  name: string;
  run(input: unknown): Promise<unknown>;
}

/** Binds an implementation to its task; the entry passes a list of these to `serveTasks`. */
export function implement<I, O>(definition: Task<I, O>, run: (input: I) => Promise<O>): TaskHandler {
  return { name: definition.name, run: run as (input: unknown) => Promise<unknown> };
}

/**
 * Thrown by a task for input it refuses (a damaged image, a limit exceeded): the caller gets a
 * `SandboxError` of kind `refused` with this message, meant to be shown to the client.
 */
export class TaskRefusal extends Error {
  override name = 'TaskRefusal';
  /** A short word the caller can decide on (`limit`: a limit was exceeded), passed on as `SandboxError.code`. */
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}
