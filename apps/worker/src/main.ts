// The webhook relay and delivery worker of both services, alone (containers).
import { serve } from '@platform/runtime';

await serve([], { worker: true });
