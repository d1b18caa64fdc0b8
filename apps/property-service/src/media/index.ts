// The public surface of the property media resource: the app uses only this.
export { mediaRoutes } from './routes.js';
export { createMediaService, type MediaService, type MediaServiceDeps } from './service.js';
export {
  MEDIA_KINDS,
  MEDIA_MAX_BYTES,
  MEDIA_MAX_PIXELS,
  MEDIA_MAX_PER_PROPERTY,
  LARGE,
  THUMBNAIL,
  ALLOWED_TYPES as MEDIA_ALLOWED_TYPES,
} from './schemas.js';
export { mediaRepository } from './repository.js';
export { MEDIA_RENDITIONS_JOB } from './renditions-job.js';
export type { MediaRow, RenditionRow } from './mapping.js';
