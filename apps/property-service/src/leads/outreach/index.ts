// Outreach on change (Treffer): a property activated or made cheaper announces its matching, reachable prospects.
export { outreachRoutes } from './routes.js';
export { createOutreachSettingsService, type OutreachSettingsService } from './service.js';
export { outreachTrigger } from './trigger.js';
export { OUTREACH_JOB, SWEEP_OUTREACH_JOB } from './jobs.js';
export type { OutreachReason } from './outreach-sql.js';
export { forgetOutreach, type ForgottenProspect } from './forget-sql.js';
/** What outreach holds about one prospect (the Auskunft): read only. */
export {
  outreachOfProspect,
  type ProspectAnnouncementRow,
  type ProspectDailyCountRow,
} from './prospect-announcements-sql.js';
