// `pnpm start`: both services in one process on one database (embedded unless DATABASE_URL is set).
import { serve } from '@platform/runtime';
import { PROPERTY_JOBS, propertyService } from '@platform/property-service';
import { agentPlatformService } from '@platform/agent-platform';

await serve([propertyService, agentPlatformService], { worker: true, jobs: PROPERTY_JOBS });
