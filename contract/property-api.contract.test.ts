// The property API and the public feeds, driven through the typed client over real HTTP; every
// response checked against openapi/property-api.json and openapi/public-feeds-api.json.
import { beforeAll } from 'vitest';
import type { EventType } from '@platform/contract';
import { describeContractChecks, subscribeToEverything } from './checks.js';
import { contractRun } from './harness.js';
import { describePropertyScenarios, PROPERTY_EVENTS } from './property-api/index.js';

const run = contractRun(['property-api', 'public-feeds-api', 'leads-api']);
let eventTypes: EventType[] = [];
beforeAll(async () => void (eventTypes = await subscribeToEverything(run, 'property')));

describePropertyScenarios(run);
describeContractChecks(run, 'property-api', {
  service: 'property',
  eventTypes: () => eventTypes,
  expectedEvents: PROPERTY_EVENTS,
});
describeContractChecks(run, 'public-feeds-api', { service: 'property' });
