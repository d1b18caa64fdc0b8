import type { JobCatalogue } from '@platform/service';
import { GENERATE_CATALOG_ENTRY_JOB, SWEEP_CATALOG_ENTRIES_JOB } from './catalog-entries/index.js';

/** Jobs of the agent platform, run by the worker and by `pnpm cli jobs run <name>`. */
export const AGENT_PLATFORM_JOBS = [GENERATE_CATALOG_ENTRY_JOB, SWEEP_CATALOG_ENTRIES_JOB] as const satisfies JobCatalogue;
