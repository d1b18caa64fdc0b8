// `@platform/property-service/sandbox`: the service's tasks on untrusted input, for the sandbox's entry (scripts/sandbox.ts).
import type { TaskHandler } from '@platform/sandbox';
import { AUSKUNFT_TASK } from './leads/auskunft/sandbox.js';
import { EXPOSE_TASK } from './listings/sandbox.js';

export const PROPERTY_SANDBOX_TASKS: readonly TaskHandler[] = [EXPOSE_TASK, AUSKUNFT_TASK];
