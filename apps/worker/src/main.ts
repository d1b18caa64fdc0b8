// The webhook relay, the delivery worker and the scheduled jobs of both services, alone (containers).
import { PROPERTY_JOBS } from '@platform/property-service';
import { serve } from '@platform/runtime';

await serve([], { worker: true, jobs: PROPERTY_JOBS });
