import type { ScheduledJob } from '@platform/runtime';
import { anonymiseExpired } from './leads/retention.js';

/** Jobs of the property-marketing service, run by the worker and by `pnpm cli jobs run <name>`. */
export const PROPERTY_JOBS: ScheduledJob[] = [
  {
    name: 'anonymise',
    pattern: '0 3 * * *',
    tz: 'Europe/Berlin',
    run: async (db, now) => ({ anonymised: await anonymiseExpired(db, now) }),
  },
];
