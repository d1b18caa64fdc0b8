// The public surface of the portal transfers (portal channels' listings pushed as OpenImmo ZIP files): the app uses only this.
export { portalRoutes } from './routes.js';
export { createPortalService, type PortalService } from './service.js';
export { PORTAL_TRANSFER_JOB, SWEEP_PORTALS_JOB, enqueueAccountTransfers, enqueuePortalTransfer } from './jobs.js';
export { runPortalTransfer, type PortalRunContext, type PortalRunResult } from './run.js';
export { portalScheduleSql } from './schedule-sql.js';
export { portalObjectSql } from './objects-sql.js';
