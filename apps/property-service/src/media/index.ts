// The public surface of the property media resource: the app uses only this.
export { mediaRoutes } from './routes.js';
export { createMediaService, type MediaService, type MediaServiceDeps } from './service.js';
export { MEDIA_KINDS, MEDIA_MAX_BYTES, ALLOWED_TYPES as MEDIA_ALLOWED_TYPES } from './schemas.js';
