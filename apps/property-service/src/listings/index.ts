// The public surface of the listings resource (listings, their exposé and their publication): the app uses only this.
export { listingRoutes } from './routes.js';
export { feedRoutes } from './feeds.js';
export { FEED_RATE_LIMIT_PER_ADDRESS, FEED_RATE_LIMIT_PER_TOKEN } from './feed-limits.js';
export { createListingService, withdrawListingsOfProperty, type ListingService } from './service.js';
export { GENERATE_LISTING_JOB, SWEEP_LISTINGS_JOB } from './generation.js';
