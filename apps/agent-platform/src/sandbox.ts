// `@platform/agent-platform/sandbox`: the service's tasks on untrusted input, for the sandbox's entry (scripts/sandbox.ts).
import type { TaskHandler } from '@platform/sandbox';
import { CATALOG_RECORD_TASK } from './catalog-entries/sandbox.js';

export const AGENT_PLATFORM_SANDBOX_TASKS: readonly TaskHandler[] = [CATALOG_RECORD_TASK];
