import { agentPlatformDescriptor } from '@platform/agent-platform';
import { propertyDescriptor } from '@platform/property-service';
import { jobsOf } from '@platform/runtime';

/** The services the operator manages; the CLI is, like `pnpm start` and the worker, where they meet. */
export const SERVICES = [propertyDescriptor, agentPlatformDescriptor] as const;

/** The jobs of every service and the deployment's own, as the worker schedules them. */
export const JOBS = jobsOf(SERVICES);
