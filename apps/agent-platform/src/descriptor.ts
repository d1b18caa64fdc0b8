import { defineService } from '@platform/service';
import { AGENT_PLATFORM_EVENTS } from './events.js';
import { AGENT_PLATFORM_JOBS } from './jobs.js';

/** What is the agent platform's own; the packages get it from here. */
export const agentPlatformDescriptor = defineService({
  id: 'agent_platform',
  names: { en: 'agent platform', de: 'Agent-Plattform' },
  keyPrefix: 'ap',
  // The spec's scope table plus `keys:manage` for self-service key rotation.
  scopes: [
    'agents:read',
    'agents:write',
    'catalog:read',
    'catalog:write',
    'requests:read',
    'requests:write',
    'sessions:write',
    'estimates:read',
    'chargebacks:read',
    'keys:manage',
  ],
  webhookHeaderPrefix: 'Platform',
  events: AGENT_PLATFORM_EVENTS,
  jobs: AGENT_PLATFORM_JOBS,
  port: { variable: 'AGENT_PLATFORM_PORT', default: 3100, description: 'Port of the agent platform.' },
  settings: [],
  loggedQueryParameters: ['status', 'team', 'agent_id', 'capability', 'data_classification', 'from', 'to'],
});
