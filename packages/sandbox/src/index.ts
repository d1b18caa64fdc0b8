export { createSandbox, type Sandbox, type SandboxOptions, type RunOptions, type TaskSample } from './pool.js';
export { SandboxError, type SandboxFailure } from './errors.js';
export { task, implement, TaskRefusal, type Task, type TaskHandler } from './tasks.js';
export { withWorkspace } from './workspace.js';
export { residentBytes } from './memory.js';
export { runnableEntry } from './entry.js';
