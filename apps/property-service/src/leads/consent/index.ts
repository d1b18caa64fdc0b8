// Consents (Einwilligungen) of prospects with their history, and the outreach condition in SQL.
export { consentRoutes } from './routes.js';
export {
  createConsentService,
  recordDeclaredConsent,
  withdrawal,
  type ConsentService,
  type ConsentServiceDeps,
  type ConsentSubject,
} from './service.js';
export { isReachableForOutreach, reachableForOutreach, syncConsentMirror, withdrawStanding } from './consent-sql.js';
export { consentHistoryOf, ConsentRecordSchema, type ConsentRecord } from './consent-history.js';
