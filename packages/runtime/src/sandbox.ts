import { fileURLToPath } from 'node:url';
import { createSandbox, type Sandbox, type SandboxOptions } from '@platform/sandbox';
import type { Config } from './config.js';

/**
 * The sandbox's entry: `sandbox.js` beside the running bundle (every dist/ entry is in one folder),
 * or, running from source, `scripts/sandbox.ts` (compiled by the sandbox before its children start).
 */
export function sandboxEntry(): string {
  if (!import.meta.url.endsWith('.ts')) return fileURLToPath(new URL('./sandbox.js', import.meta.url));
  return fileURLToPath(new URL('../../../scripts/sandbox.ts', import.meta.url));
}

export interface SandboxHooks {
  onTask?: SandboxOptions['onTask'];
  /** What a child that ended abnormally wrote last: the operator's log. */
  onChildTrouble?: SandboxOptions['onChildTrouble'];
}

/**
 * The pool a service decodes uploads in: one account has at most twice `processes` uploads in it at
 * once (more are 503 for that account alone), and an upload waits at most twice the decode deadline.
 */
export function openUploadSandbox(config: Pick<Config, 'sandbox'>, hooks: SandboxHooks = {}): Sandbox {
  return createSandbox({
    ...base(config, hooks),
    maxPerGroup: config.sandbox.processes * 2,
    maxWaitMs: config.sandbox.decodeSeconds * 2000,
  });
}

/** The pool the worker (and the CLI's jobs) render documents in: their jobs wait in the queue, not here. */
export function openSandbox(config: Pick<Config, 'sandbox'>, hooks: SandboxHooks = {}): Sandbox {
  return createSandbox(base(config, hooks));
}

function base(config: Pick<Config, 'sandbox'>, hooks: SandboxHooks): SandboxOptions {
  return {
    entry: sandboxEntry(),
    processes: config.sandbox.processes,
    memoryMb: config.sandbox.memoryMb,
    timeoutMs: config.sandbox.renderSeconds * 1000,
    ...(hooks.onTask ? { onTask: hooks.onTask } : {}),
    ...(hooks.onChildTrouble ? { onChildTrouble: hooks.onChildTrouble } : {}),
  };
}
