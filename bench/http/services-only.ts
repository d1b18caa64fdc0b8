// Both services in one process without the relay, delivery worker and scheduled jobs: the API
// process of a deployment that runs apps/worker separately. Started by bench/http/run.ts.
import { serve } from '@platform/runtime';
import { propertyService } from '@platform/property-service';
import { agentPlatformService } from '@platform/agent-platform';

await serve({ listen: [propertyService, agentPlatformService] });
