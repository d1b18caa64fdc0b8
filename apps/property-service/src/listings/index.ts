// The public surface of the listings resource (listings, their exposé and where they are published): the app and other resources use only this.
export { listingRoutes } from './routes.js';
export {
  createListingService,
  withdrawListingsOfProperty,
  type ListingService,
  type PublicationRefusal,
} from './service.js';
export { GENERATE_LISTING_JOB, SWEEP_LISTINGS_JOB } from './generation.js';
export { publicAddress, formatPublicAddress, type PublicAddress } from './address.js';
export {
  isPublished,
  type ListingMediaSnapshot,
  type ListingPropertySnapshot,
  type ListingSnapshot,
} from './snapshot.js';
export { PUBLISHED_VARIANTS, snapshotOf } from './mapping.js';
export { listingRepository } from './repository.js';
