// Entry point of the property-marketing service alone (containers); `pnpm start` runs all services.
import { serve } from '@platform/runtime';
import { propertyService } from './index.js';

await serve({ listen: [propertyService] });
