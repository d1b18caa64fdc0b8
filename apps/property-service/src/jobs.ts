import { Type } from '@sinclair/typebox';
import { defineJob, type JobCatalogue } from '@platform/service';
import { endViewingsReporting } from './forgotten-viewings.js';
import { anonymiseExpired, vacuumLeads } from './leads/retention/index.js';
import { withErasureAudit } from './leads/erasure-audit/index.js';
import { OUTREACH_JOB, SWEEP_OUTREACH_JOB } from './leads/outreach/index.js';
import { GENERATE_LISTING_JOB, SWEEP_LISTINGS_JOB } from './listings/index.js';
import { invoiceJobs } from './invoices/index.js';
import { MEDIA_RENDITIONS_JOB } from './media/index.js';
import { PORTAL_TRANSFER_JOB, SWEEP_PORTALS_JOB } from './portals/index.js';

/** Jobs of the property-marketing service, run by the worker and by `pnpm cli jobs run <name>`. */
export const PROPERTY_JOBS = [
  defineJob({
    name: 'anonymise',
    description: 'Anonymises every prospect whose retention date has passed (and the messages of their inquiries).',
    payload: Type.Object({}, { additionalProperties: false }),
    schedule: { pattern: '0 3 * * *', tz: 'Europe/Berlin' },
    retry: { attempts: 3, backoffMs: 5 * 60_000 },
    run: async ({ db, now }) => {
      // Each anonymised prospect gets its audit record (rule: retention date passed) in the batch's transaction.
      const audited = withErasureAudit(endViewingsReporting, { kind: 'anonymisation' });
      const anonymised = await anonymiseExpired(db, now, audited);
      await vacuumLeads(db);
      return { anonymised };
    },
  }),
  GENERATE_LISTING_JOB,
  SWEEP_LISTINGS_JOB,
  invoiceJobs.generate,
  invoiceJobs.sweep,
  MEDIA_RENDITIONS_JOB,
  OUTREACH_JOB,
  SWEEP_OUTREACH_JOB,
  PORTAL_TRANSFER_JOB,
  SWEEP_PORTALS_JOB,
] as const satisfies JobCatalogue;
