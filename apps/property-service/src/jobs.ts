import type { ScheduledJob } from '@platform/runtime';
import { anonymiseExpired } from './leads/retention.js';

/** Jobs of the property-marketing service, run by the worker and by `pnpm cli jobs run <name>`. */
export const PROPERTY_JOBS: ScheduledJob[] = [
  {
    name: 'anonymise',
    pattern: '0 3 * * *',
    tz: 'Europe/Berlin',
    run: async (db, now) => {
      const anonymised = await anonymiseExpired(db, now);
      // Old row versions of the day's anonymised and erased records become free space (it is
      // reused, not zeroed; see README "Erasure and storage").
      await db.$executeRawUnsafe('VACUUM prospects, inquiries');
      return { anonymised };
    },
  },
];
