// The webhook relay, the delivery worker and the scheduled jobs of both services, alone (containers).
import { agentPlatformDescriptor } from '@platform/agent-platform';
import { propertyDescriptor } from '@platform/property-service';
import { serve } from '@platform/runtime';

await serve({ worker: [propertyDescriptor, agentPlatformDescriptor] });
