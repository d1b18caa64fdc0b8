// Retention of the leads data (GDPR): the nightly anonymisation and the immediate erasure.
export { anonymiseExpired, eraseProspect, vacuumLeads, type EndViewings } from './retention-sql.js';
