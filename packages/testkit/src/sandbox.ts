import { fileURLToPath } from 'node:url';
import { createSandbox, type Sandbox, type SandboxOptions } from '@platform/sandbox';

/** The deployment's sandbox entry, run from source as `pnpm start` runs it. */
export const SANDBOX_ENTRY = fileURLToPath(new URL('../../../scripts/sandbox.ts', import.meta.url));

/** A sandbox pool of the deployment's entry for one test file (limits as the defaults of the configuration, unless given). */
export function testSandbox(options: Partial<SandboxOptions> = {}): Sandbox {
  return createSandbox({ entry: SANDBOX_ENTRY, processes: 2, memoryMb: 512, timeoutMs: 120_000, ...options });
}
