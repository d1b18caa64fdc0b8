// The deployment at scale: two instances of each service and two workers behind nginx, which
// terminates TLS with a certificate of a test CA; uploads on S3. The contract suites of every
// document run through the proxy over HTTPS, then the proxy's handling of client addresses and of
// an instance killed mid-run.
import { beforeAll } from 'vitest';
import { Agent, setGlobalDispatcher } from 'undici';
import type { EventType } from '@platform/contract';
import { startScaledDeployment, type ScaledDeployment } from '@platform/testkit';
import { describeAgentPlatformScenarios, AGENT_PLATFORM_EVENTS } from './agent-platform-api/index.js';
import { describeContractChecks, subscribeToEverything } from './checks.js';
import { contractRun } from './harness.js';
import { describeLeadsScenarios, LEADS_EVENTS } from './leads-api/index.js';
import { describePropertyScenarios, PROPERTY_EVENTS } from './property-api/index.js';

let deployment: ScaledDeployment;
const run = contractRun(['property-api', 'public-feeds-api', 'leads-api', 'agent-platform-api'], {
  deploy: async (db, env) => {
    deployment = await startScaledDeployment({ databaseUrl: db.url, env });
    // The suite's requests (globalThis.fetch) trust the test CA, and nothing else is relaxed.
    setGlobalDispatcher(new Agent({ connect: { ca: deployment.ca } }));
    return deployment;
  },
});
const eventTypes: { property: EventType[]; agents: EventType[] } = { property: [], agents: [] };
beforeAll(async () => {
  eventTypes.property = await subscribeToEverything(run, 'property');
  eventTypes.agents = await subscribeToEverything(run, 'agents');
});

describePropertyScenarios(run);
describeLeadsScenarios(run);
describeAgentPlatformScenarios(run);
describeContractChecks(run, 'property-api', {
  service: 'property',
  eventTypes: () => eventTypes.property,
  expectedEvents: PROPERTY_EVENTS,
});
describeContractChecks(run, 'public-feeds-api', { service: 'property' });
describeContractChecks(run, 'leads-api', {
  service: 'property',
  eventTypes: () => eventTypes.property,
  expectedEvents: LEADS_EVENTS,
});
describeContractChecks(run, 'agent-platform-api', {
  service: 'agents',
  eventTypes: () => eventTypes.agents,
  expectedEvents: AGENT_PLATFORM_EVENTS,
});
