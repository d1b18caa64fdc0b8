// The sandbox's child processes run this (bundled as dist/sandbox.js): every task on untrusted input
// of the deployment — decoding uploads, rendering documents — loaded only here, never in the
// services' own processes.
import { AGENT_PLATFORM_SANDBOX_TASKS } from '@platform/agent-platform/sandbox';
import { BILLING_SANDBOX_TASKS } from '@platform/billing/sandbox';
import { PROPERTY_SANDBOX_TASKS } from '@platform/property-service/sandbox';
import { serveTasks } from '@platform/sandbox/child';
import { UPLOAD_TASKS } from '@platform/uploads/sandbox';

serveTasks([...UPLOAD_TASKS, ...BILLING_SANDBOX_TASKS, ...PROPERTY_SANDBOX_TASKS, ...AGENT_PLATFORM_SANDBOX_TASKS]);
