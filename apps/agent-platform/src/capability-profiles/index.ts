// The public surface of the capability-profiles resource: other resources and the app use only this.
export { profileRoutes } from './routes.js';
export { createProfileService, type ProfileService, type ProfileServiceDeps } from './service.js';
export { profileRepository, insertProfile } from './repository.js';
export { ProfileInputSchema, type ProfileInput } from './schemas.js';
export type { ProfileRow } from './mapping.js';
