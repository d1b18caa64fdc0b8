// The public surface of the viewing-slots resource: the app uses only this.
export { viewingSlotRoutes } from './routes.js';
export { createViewingSlotService, cancelSlotsOfProperty, type ViewingSlotService } from './service.js';
export { openSlotOfHostDuring } from './host-time-sql.js';
