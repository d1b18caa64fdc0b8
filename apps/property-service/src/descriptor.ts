import { defineService } from '@platform/service';
import { PROPERTY_EVENTS } from './events.js';
import { erasureJournalSetting, erasureStartCheck } from './leads/erasure-audit/index.js';
import { PROPERTY_JOBS } from './jobs.js';

/** What is the property-marketing service's own; the packages get it from here. */
export const propertyDescriptor = defineService({
  id: 'property',
  names: { en: 'property-marketing service', de: 'Property-Marketing-Service' },
  keyPrefix: 'pm',
  // The spec's scope table plus `keys:manage` for self-service key rotation, `commissions:write`
  // for correcting invoices by credit note and `leads:export` for a prospect's Auskunft (GDPR Art. 15/20).
  scopes: [
    'properties:read',
    'properties:write',
    'listings:read',
    'listings:write',
    'leads:read',
    'leads:write',
    'leads:export',
    'appointments:write',
    'valuations:read',
    'commissions:read',
    'commissions:write',
    'keys:manage',
  ],
  webhookHeaderPrefix: 'Service',
  events: PROPERTY_EVENTS,
  jobs: PROPERTY_JOBS,
  // After a database restore the erasures since the backup are applied again first (API and worker).
  startCheck: erasureStartCheck,
  port: { variable: 'PROPERTY_PORT', default: 3000, description: 'Port of the property-marketing service.' },
  settings: [
    {
      name: 'leadsRetentionDays',
      variable: 'LEADS_RETENTION_DAYS',
      default: 180,
      min: 1,
      max: 3650,
      unit: 'days',
      description:
        'Days a prospect is kept after its last activity (creation or latest inquiry); then the nightly job anonymises it.',
    },
    {
      name: 'mediaMaxPixels',
      variable: 'MEDIA_MAX_PIXELS',
      default: 40_000_000,
      min: 1_000_000,
      max: 268_000_000,
      unit: 'pixels',
      description:
        'Pixels (width × height) an uploaded photo or floor plan may have; a larger one is refused (422) before it is decoded.',
    },
    {
      name: 'mediaMaxPerProperty',
      variable: 'MEDIA_MAX_PER_PROPERTY',
      default: 100,
      min: 1,
      max: 1000,
      unit: 'media',
      description: 'Photos, floor plans and documents a property may have; one more is refused (422).',
    },
    {
      name: 'feedRateLimitPerToken',
      variable: 'FEED_RATE_LIMIT_PER_TOKEN',
      default: 600,
      min: 1,
      max: 1_000_000,
      unit: 'requests per minute',
      description:
        'Requests per minute to one public feed token (feed, listings, PDFs and photos together), from any address; more are answered 429.',
    },
    {
      name: 'feedRateLimitPerAddress',
      variable: 'FEED_RATE_LIMIT_PER_ADDRESS',
      default: 1200,
      min: 1,
      max: 1_000_000,
      unit: 'requests per minute',
      description:
        "Requests per minute from one client address to the public feeds, any token (a portal reads many agencies' feeds from the same addresses); " +
        'behind a proxy the address is its X-Forwarded-For only with TRUST_PROXY=true.',
    },
    {
      name: 'feedCacheMb',
      variable: 'FEED_CACHE_MB',
      default: 32,
      min: 1,
      max: 4096,
      unit: 'MiB',
      description:
        'Memory each service process keeps for built public feeds (30 s each); the least recently used go first.',
    },
    erasureJournalSetting,
  ],
  loggedQueryParameters: ['status', 'type', 'immobilie_id', 'suchprofil_aktiv', 'property_id', 'from', 'to'],
});
