// The agent platform API, driven through the typed client over real HTTP; every response checked
// against openapi/agent-platform-api.json.
import { beforeAll } from 'vitest';
import type { EventType } from '@platform/contract';
import { describeContractChecks, subscribeToEverything } from './checks.js';
import { contractRun } from './harness.js';
import { AGENT_PLATFORM_EVENTS, describeAgentPlatformScenarios } from './agent-platform-api/index.js';

const run = contractRun(['agent-platform-api']);
let eventTypes: EventType[] = [];
beforeAll(async () => void (eventTypes = await subscribeToEverything(run, 'agents')));

describeAgentPlatformScenarios(run);
describeContractChecks(run, 'agent-platform-api', {
  service: 'agents',
  eventTypes: () => eventTypes,
  expectedEvents: AGENT_PLATFORM_EVENTS,
});
