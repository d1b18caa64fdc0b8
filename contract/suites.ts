// The contract suite of each API as one function, so that the same suite runs against each way of
// deploying the services (`pnpm start` by default; behind a pooler or a proxy with `deploy`).
import { beforeAll } from 'vitest';
import type { EventType } from '@platform/contract';
import { describeContractChecks, subscribeToEverything } from './checks.js';
import { contractRun, type ContractRunOptions } from './harness.js';
import { AGENT_PLATFORM_EVENTS, describeAgentPlatformScenarios } from './agent-platform-api/index.js';
import { describeLeadsScenarios, LEADS_EVENTS } from './leads-api/index.js';
import { describePropertyScenarios, PROPERTY_EVENTS } from './property-api/index.js';

/** The property API and the public feeds: every response checked against their documents. */
export function propertyApiSuite(options: ContractRunOptions = {}): void {
  const run = contractRun(['property-api', 'public-feeds-api', 'leads-api'], options);
  let eventTypes: EventType[] = [];
  beforeAll(async () => void (eventTypes = await subscribeToEverything(run, 'property')));

  describePropertyScenarios(run);
  describeContractChecks(run, 'property-api', {
    service: 'property',
    eventTypes: () => eventTypes,
    expectedEvents: PROPERTY_EVENTS,
  });
  describeContractChecks(run, 'public-feeds-api', { service: 'property' });
}

/** The leads API (German dialect). */
export function leadsApiSuite(options: ContractRunOptions = {}): void {
  const run = contractRun(['leads-api', 'property-api'], options);
  let eventTypes: EventType[] = [];
  beforeAll(async () => void (eventTypes = await subscribeToEverything(run, 'property')));

  describeLeadsScenarios(run);
  describeContractChecks(run, 'leads-api', {
    service: 'property',
    eventTypes: () => eventTypes,
    expectedEvents: LEADS_EVENTS,
  });
}

/** The agent platform API. */
export function agentPlatformApiSuite(options: ContractRunOptions = {}): void {
  const run = contractRun(['agent-platform-api'], options);
  let eventTypes: EventType[] = [];
  beforeAll(async () => void (eventTypes = await subscribeToEverything(run, 'agents')));

  describeAgentPlatformScenarios(run);
  describeContractChecks(run, 'agent-platform-api', {
    service: 'agents',
    eventTypes: () => eventTypes,
    expectedEvents: AGENT_PLATFORM_EVENTS,
  });
}
