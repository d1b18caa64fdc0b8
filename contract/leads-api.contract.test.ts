// The leads API (German dialect), driven through the typed client over real HTTP; every response
// checked against openapi/leads-api.json.
import { beforeAll } from 'vitest';
import type { EventType } from '@platform/contract';
import { describeContractChecks, subscribeToEverything } from './checks.js';
import { contractRun } from './harness.js';
import { describeLeadsScenarios, LEADS_EVENTS } from './leads-api/index.js';

const run = contractRun(['leads-api', 'property-api']);
let eventTypes: EventType[] = [];
beforeAll(async () => void (eventTypes = await subscribeToEverything(run, 'property')));

describeLeadsScenarios(run);
describeContractChecks(run, 'leads-api', {
  service: 'property',
  eventTypes: () => eventTypes,
  expectedEvents: LEADS_EVENTS,
});
