// The public surface of the internal catalog (published catalog entries, searchable): the app uses only this.
export { catalogRoutes } from './routes.js';
export { createCatalogService, type CatalogService } from './service.js';
