import type { JobCatalogue } from '@platform/service';
import { GENERATE_CATALOG_ENTRY_JOB, SWEEP_CATALOG_ENTRIES_JOB } from './catalog-entries/index.js';
import { CHARGEBACKS_JOB, GENERATE_INTERNAL_INVOICE_JOB, SWEEP_INTERNAL_INVOICES_JOB } from './chargebacks/index.js';

/** Jobs of the agent platform, run by the worker and by `pnpm cli jobs run <name>`. */
export const AGENT_PLATFORM_JOBS = [
  GENERATE_CATALOG_ENTRY_JOB,
  SWEEP_CATALOG_ENTRIES_JOB,
  CHARGEBACKS_JOB,
  GENERATE_INTERNAL_INVOICE_JOB,
  SWEEP_INTERNAL_INVOICES_JOB,
] as const satisfies JobCatalogue;
