import type { Client } from 'openapi-fetch';
import type { paths as AgentPlatformPaths } from './generated/agent-platform-api.js';
import type { paths as LeadsPaths } from './generated/leads-api.js';
import type { paths as PropertyPaths } from './generated/property-api.js';
import type { paths as PublicFeedsPaths } from './generated/public-feeds-api.js';
import type { ClientOptions } from './options.js';
import type { ListPath } from './pages.js';
import { listsOf, typedClient, type Lists } from './typed-client.js';

const PROPERTY_LISTS = {
  apiKeys: '/v1/api-keys',
  properties: '/v1/properties',
  listings: '/v1/listings',
  channels: '/v1/channels',
  appointments: '/v1/appointments',
  settlements: '/v1/settlements',
  invoices: '/v1/invoices',
  webhooks: '/v1/webhooks',
} as const satisfies Record<string, ListPath<PropertyPaths>>;

const LEADS_LISTS = {
  interessenten: '/leads/v1/interessenten',
  anfragen: '/leads/v1/anfragen',
} as const satisfies Record<string, ListPath<LeadsPaths>>;

const AGENT_PLATFORM_LISTS = {
  apiKeys: '/v1/api-keys',
  agents: '/v1/agents',
  capabilityProfiles: '/v1/capability-profiles',
  accessRequests: '/v1/access-requests',
  catalogEntries: '/v1/catalog-entries',
  catalog: '/v1/catalog',
  evaluationSessions: '/v1/evaluation-sessions',
  chargebackSettlements: '/v1/chargebacks/settlements',
  internalInvoices: '/v1/internal-invoices',
  webhooks: '/v1/webhooks',
} as const satisfies Record<string, ListPath<AgentPlatformPaths>>;

export type PropertyClient = Client<PropertyPaths> & Lists<PropertyPaths, typeof PROPERTY_LISTS>;
export type LeadsClient = Client<LeadsPaths> & Lists<LeadsPaths, typeof LEADS_LISTS>;
export type AgentPlatformClient = Client<AgentPlatformPaths> & Lists<AgentPlatformPaths, typeof AGENT_PLATFORM_LISTS>;
export type PublicFeedsClient = Client<PublicFeedsPaths>;

function withLists<Paths extends object, M extends Record<string, ListPath<Paths>>>(
  client: Client<Paths>,
  lists: M,
): Client<Paths> & Lists<Paths, M> {
  return Object.assign(client, listsOf(client, lists));
}

/** The property API (`/v1`, key `pm_…`): properties, media, listings, channels, appointments, money, webhooks. */
export const createPropertyClient = (options: ClientOptions): PropertyClient =>
  withLists(typedClient<PropertyPaths>(options), PROPERTY_LISTS);

/** Die Leads-API (`/leads/v1`, Schlüssel `pm_…`): Interessenten und Anfragen; Fehler als `LeadsApiError`. */
export const createLeadsClient = (options: ClientOptions): LeadsClient =>
  withLists(typedClient<LeadsPaths>(options), LEADS_LISTS);

/** The agent-platform API (`/v1`, key `ap_…`). */
export const createAgentPlatformClient = (options: ClientOptions): AgentPlatformClient =>
  withLists(typedClient<AgentPlatformPaths>(options), AGENT_PLATFORM_LISTS);

/** The public listing feeds (`/public/v1/feeds/{feedToken}/…`): no key, the feed token is the secret. */
export const createPublicFeedsClient = (options: Omit<ClientOptions, 'apiKey'>): PublicFeedsClient =>
  typedClient<PublicFeedsPaths>(options);
