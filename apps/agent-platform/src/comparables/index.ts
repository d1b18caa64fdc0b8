// The public surface of the comparables resource: the app uses only this.
export { comparablesRoutes } from './routes.js';
export { createComparablesService, type ComparablesService } from './service.js';
