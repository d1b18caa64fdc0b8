export {
  createPropertyClient,
  createLeadsClient,
  createAgentPlatformClient,
  createPublicFeedsClient,
} from './clients.js';
export type { PropertyClient, LeadsClient, AgentPlatformClient, PublicFeedsClient } from './clients.js';
export {
  ApiError,
  LeadsApiError,
  unwrap,
  type ErrorDetail,
  type ErrorConstraint,
  type FehlerDetail,
  type FehlerVorgabe,
  type CallResult,
} from './errors.js';
export { idempotencyKey, multipart, type ClientOptions } from './options.js';
export { paginate, type ItemOf, type ListPath, type ListQuery } from './pages.js';
export type { paths as PropertyPaths, components as PropertyComponents } from './generated/property-api.js';
export type { paths as LeadsPaths, components as LeadsComponents } from './generated/leads-api.js';
export type {
  paths as AgentPlatformPaths,
  components as AgentPlatformComponents,
} from './generated/agent-platform-api.js';
export type { paths as PublicFeedsPaths } from './generated/public-feeds-api.js';
export { verifyWebhook, SIGNATURE_HEADERS, type WebhookCheck } from './webhooks.js';
