// The public surface of the capability-profiles resource: other resources and the app use only this.
export { capabilityProfileRoutes } from './routes.js';
export {
  createCapabilityProfileService,
  type CapabilityProfileService,
  type CapabilityProfileServiceDeps,
} from './service.js';
export { capabilityProfileRepository, insertCapabilityProfile } from './repository.js';
export { CapabilityProfileInputSchema, type CapabilityProfileInput } from './schemas.js';
export type { CapabilityProfileRow } from './mapping.js';
