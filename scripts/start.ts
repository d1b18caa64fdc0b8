// `pnpm start`: both services in one process on one database (embedded unless DATABASE_URL is set).
import { serve } from '@platform/runtime';
import { propertyService } from '@platform/property-service';
import { agentPlatformService } from '@platform/agent-platform';

const services = [propertyService, agentPlatformService];
await serve({ listen: services, worker: services.map((s) => s.descriptor) });
