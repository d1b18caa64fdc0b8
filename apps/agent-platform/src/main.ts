// Entry point of the agent platform alone (containers); `pnpm start` runs all services.
import { serve } from '@platform/runtime';
import { agentPlatformService } from './index.js';

await serve({ listen: [agentPlatformService] });
