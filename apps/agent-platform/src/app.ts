import type { FastifyInstance } from 'fastify';
import { createServiceApp, type ServiceAppDeps } from '@platform/service';
import { accessRequestRoutes, createAccessRequestService, profileInUse } from './access-requests/index.js';
import { agentRoutes, createAgentService, type AgentServiceDeps } from './agents/index.js';
import { ARTIFACT_MAX_BYTES, artifactRoutes, createArtifactService } from './artifacts/index.js';
import { createCapabilityProfileService, capabilityProfileRoutes } from './capability-profiles/index.js';
import { catalogRoutes, createCatalogService } from './catalog/index.js';
import { chargebackRoutes, createChargebackService } from './chargebacks/index.js';
import {
  catalogEntryRoutes,
  createCatalogEntryService,
  withdrawCatalogEntriesOfAgent,
} from './catalog-entries/index.js';
import { comparablesRoutes, createComparablesService } from './comparables/index.js';
import { costEstimateRoutes, createCostEstimateService } from './cost-estimates/index.js';
import { agentPlatformDescriptor } from './descriptor.js';
import {
  createEvaluationSessionService,
  evaluationSessionRoutes,
  type EvaluationSessionService,
} from './evaluation-sessions/index.js';
import { createUsageService, usageRoutes } from './usage/index.js';

export interface AgentPlatformAppDeps extends ServiceAppDeps {
  /** Per-file limit of agent artifacts in bytes (default 50 MiB). */
  artifactMaxBytes?: number;
}

/** What retiring an agent does in its transaction: its catalog entries leave the catalog, its open sessions are cancelled. */
const onAgentRetired =
  (sessions: EvaluationSessionService): NonNullable<AgentServiceDeps['onRetired']> =>
  async (tx, accountId, agentId, at) => {
    await withdrawCatalogEntriesOfAgent(tx, accountId, agentId, at);
    await sessions.cancelOfRetiredAgent(tx, accountId, agentId, at);
  };

/** The agent platform: agent-platform API at `/v1`, English error dialect only. */
export function buildAgentPlatformApp(deps: AgentPlatformAppDeps): Promise<FastifyInstance> {
  const artifactMaxBytes = deps.artifactMaxBytes ?? ARTIFACT_MAX_BYTES;
  return createServiceApp(deps, {
    service: agentPlatformDescriptor,
    dialectFor: () => 'en',
    document: {
      prefix: '/v1',
      title: 'Agent Platform API',
      description:
        'Agent deployments of an organisation, their catalog entries and internal catalog, capability profiles of its teams, their access requests and evaluation sessions, usage of agents, cost estimates and comparable deployments, chargeback settlements and internal invoices. Authenticate with an API key in the `apikey` header.',
    },
    routes: async (v1, context) => {
      const sessions = createEvaluationSessionService(context);
      await v1.register(agentRoutes, {
        agents: createAgentService({ ...context, onRetired: onAgentRetired(sessions) }),
      });
      await v1.register(artifactRoutes, {
        artifacts: createArtifactService({ ...context, maxBytes: artifactMaxBytes }),
        storage: context.storage,
        maxBytes: artifactMaxBytes,
      });
      await v1.register(capabilityProfileRoutes, {
        profiles: createCapabilityProfileService({ ...context, profileInUse }),
      });
      await v1.register(accessRequestRoutes, { requests: createAccessRequestService(context) });
      await v1.register(catalogEntryRoutes, { entries: createCatalogEntryService(context), storage: context.storage });
      await v1.register(catalogRoutes, { catalog: createCatalogService(context) });
      await v1.register(evaluationSessionRoutes, { sessions });
      await v1.register(usageRoutes, { usage: createUsageService(context) });
      await v1.register(costEstimateRoutes, { estimates: createCostEstimateService(context) });
      await v1.register(comparablesRoutes, { comparables: createComparablesService(context) });
      await v1.register(chargebackRoutes, { chargebacks: createChargebackService(context), storage: context.storage });
    },
  });
}
