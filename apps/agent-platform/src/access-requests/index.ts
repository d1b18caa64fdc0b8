// The public surface of the access-requests resource: other resources and the app use only this.
export { accessRequestRoutes } from './routes.js';
export { createAccessRequestService, type AccessRequestService, type AccessRequestServiceDeps } from './service.js';
export { findAccessRequest, profileInUse } from './repository.js';
