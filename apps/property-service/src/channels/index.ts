// The public surface of the channels resource: other resources and the app use only this.
export { channelRoutes } from './routes.js';
export { createChannelService, feedPath, FEEDS_PATH, type ChannelService, type LiveListingCounts } from './service.js';
export { channelRepository, contactOf, type ChannelRow } from './repository.js';
export { CHANNEL_TYPES, ChannelParamsSchema, type AgencyContact, type ChannelType } from './schemas.js';
export { pinnedDrop, PortalHostRefused } from './portal-connection.js';
export { portalAccountRepository, settingsOf, type SecretCipher } from './portal-repository.js';
export type { PortalAccountChanged } from './service.js';
