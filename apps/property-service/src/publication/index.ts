// The public surface of the publication folder: what a channel makes of the live listings (the website
// feed, the OpenImmo export) and the public feed routes that serve it. It owns no table: it reads
// listings through listings/index.ts, channels through channels/index.ts and the agency's name
// through @platform/accounts. It sits above both: neither imports it (the app hands listings the
// adapters' check, `publicationRefusal`).
export { feedRoutes } from './feeds.js';
export { FEED_RATE_LIMIT_PER_ADDRESS, FEED_RATE_LIMIT_PER_TOKEN } from './feed-limits.js';
export {
  CHANNEL_ADAPTERS,
  publicationRefusal,
  type ChannelAdapter,
  type FeedContext,
  type LiveListing,
} from './channel-adapters.js';
export { mediaGroups, openImmoDocument, type OpenImmoAction, type OpenImmoListing } from './openimmo.js';
