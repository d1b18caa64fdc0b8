import { fileURLToPath } from 'node:url';
import { createSandbox, type Sandbox } from '@platform/sandbox';
import type { Config } from './config.js';

/**
 * The sandbox's entry: `sandbox.js` beside the running bundle (every dist/ entry is in one folder),
 * or, running from source, `scripts/sandbox.ts` (compiled by the sandbox before its children start).
 */
export function sandboxEntry(): string {
  if (!import.meta.url.endsWith('.ts')) return fileURLToPath(new URL('./sandbox.js', import.meta.url));
  return fileURLToPath(new URL('../../../scripts/sandbox.ts', import.meta.url));
}

/**
 * A pool of the deployment's sandbox, as configured: the services decode uploads in one, the worker
 * renders documents in another, so that neither waits for the other.
 */
export function openSandbox(config: Pick<Config, 'sandbox'>, onTask?: Parameters<typeof createSandbox>[0]['onTask']): Sandbox {
  return createSandbox({
    entry: sandboxEntry(),
    processes: config.sandbox.processes,
    memoryMb: config.sandbox.memoryMb,
    timeoutMs: config.sandbox.renderSeconds * 1000,
    ...(onTask ? { onTask } : {}),
  });
}
