// The services as `pnpm start` runs them (real HTTP, PostgreSQL, Redis), a tenant and key per
// service, a real webhook receiver, and a recorder that checks every response against the documents.
import { afterAll, beforeAll } from 'vitest';
import { agentPlatformDescriptor } from '@platform/agent-platform';
import { propertyDescriptor } from '@platform/property-service';
import {
  createTenant,
  createTestDatabase,
  startReceiver,
  startServices,
  type Receiver,
  type StartedServices,
  type Tenant,
  type TestDatabase,
  until,
} from '@platform/testkit';
import {
  createAgentPlatformClient,
  createLeadsClient,
  createPropertyClient,
  createPublicFeedsClient,
  type AgentPlatformClient,
  type LeadsClient,
  type PropertyClient,
  type PublicFeedsClient,
} from '@platform/client';
import { ContractRecorder, type DocumentName } from '@platform/contract';

/** What the suite runs against: the services' base URLs, the Redis their worker uses, and how to stop them. */
export interface Deployment {
  urls: { property: string; agents: string };
  redisUrl: string;
  stop(): Promise<unknown>;
}

export interface ContractRunOptions {
  /**
   * Starts the services on the run's database (default: `pnpm start` as one process, as
   * `startServices` runs it). Other deployments put infrastructure between the suite and the
   * services or between the services and their data (a connection pooler, a TLS proxy).
   */
  deploy?: (db: TestDatabase, env: Record<string, string>) => Promise<Deployment>;
}

/** A deployment of started services; `after` stops what was started around them. */
export function deploymentOf(services: StartedServices, after: () => Promise<unknown> = async () => {}): Deployment {
  return {
    urls: {
      property: `http://127.0.0.1:${services.ports.property}`,
      agents: `http://127.0.0.1:${services.ports.agents}`,
    },
    redisUrl: services.redisUrl,
    stop: async () => {
      await services.stop();
      await after();
    },
  };
}

/** `pnpm start` on the run's database, on a private Redis. */
async function startedServices(db: TestDatabase, env: Record<string, string>): Promise<Deployment> {
  return deploymentOf(await startServices({ databaseUrl: db.url, env }));
}

export interface ContractRun {
  recorder: ContractRecorder;
  db: TestDatabase;
  services: Deployment;
  receiver: Receiver;
  property: Tenant;
  agents: Tenant;
  /** Another account of each service: its records must stay invisible to the first. */
  otherProperty: Tenant;
  otherAgents: Tenant;
  /** Base URLs of the two services. */
  urls: { property: string; agents: string };
  /** The typed clients with the tenants' sandbox keys; every response they get is checked by the recorder. */
  clients: { property: PropertyClient; leads: LeadsClient; agents: AgentPlatformClient; feeds: PublicFeedsClient };
}

/**
 * Starts everything before the file's tests and stops it after them. The returned object is
 * filled in `beforeAll`: read its fields inside tests and hooks, not at module level.
 */
export function contractRun(documents: readonly DocumentName[], options: ContractRunOptions = {}): ContractRun {
  const run = { recorder: new ContractRecorder(documents) } as ContractRun;
  beforeAll(async () => {
    run.db = await createTestDatabase();
    run.property = await createTenant(run.db.prisma, { service: propertyDescriptor });
    run.agents = await createTenant(run.db.prisma, { service: agentPlatformDescriptor });
    run.otherProperty = await createTenant(run.db.prisma, { service: propertyDescriptor });
    run.otherAgents = await createTenant(run.db.prisma, { service: agentPlatformDescriptor });
    run.receiver = await startReceiver();
    // the suite polls (worker jobs): no rate limit in its way
    run.services = await (options.deploy ?? startedServices)(run.db, {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    run.urls = run.services.urls;
    // A service just started on a busy machine may still shed load (503 from its event-loop guard):
    // the suite starts once each answers an authenticated read.
    for (const [url, key] of [
      [run.urls.property, run.property.key],
      [run.urls.agents, run.agents.key],
    ] as const) {
      await until(
        async () =>
          (await globalThis.fetch(`${url}/v1/event-types`, { headers: { apikey: key } })).status === 200
            ? true
            : undefined,
        60_000,
      );
    }
    const fetch = (request: Request) => run.recorder.fetch(request);
    run.clients = {
      property: createPropertyClient({ baseUrl: run.urls.property, apiKey: run.property.key, fetch }),
      leads: createLeadsClient({ baseUrl: run.urls.property, apiKey: run.property.key, fetch }),
      agents: createAgentPlatformClient({ baseUrl: run.urls.agents, apiKey: run.agents.key, fetch }),
      feeds: createPublicFeedsClient({ baseUrl: run.urls.property, fetch }),
    };
  }, 120_000);
  afterAll(async () => {
    await run.services?.stop();
    await run.receiver?.close();
    await run.db?.drop();
  });
  return run;
}
