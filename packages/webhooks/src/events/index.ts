export { eventRoutes, ereignisRoutes } from './routes.js';
export { createEventService, type EventService, type EventServiceDeps } from './service.js';
export { readableEventTypes, missingScopesFor } from './readable.js';
export { eventsNaming, type EventNaming } from './naming-sql.js';
