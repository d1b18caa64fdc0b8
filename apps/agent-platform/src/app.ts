import type { FastifyInstance } from 'fastify';
import { createServiceApp, type ServiceAppDeps } from '@platform/service';
import { agentPlatformDescriptor } from './descriptor.js';
import { agentRoutes } from './agents/routes.js';
import { createAgentService } from './agents/service.js';
import { accessRequestRoutes } from './access-requests/routes.js';
import { createAccessRequestService } from './access-requests/service.js';
import { profileRoutes } from './capability-profiles/routes.js';
import { createProfileService } from './capability-profiles/service.js';

export type AgentPlatformAppDeps = ServiceAppDeps;

/** The agent platform: agent-platform API at `/v1`, English error dialect only. */
export function buildAgentPlatformApp(deps: AgentPlatformAppDeps): Promise<FastifyInstance> {
  return createServiceApp(deps, {
    service: agentPlatformDescriptor,
    dialectFor: () => 'en',
    document: {
      prefix: '/v1',
      title: 'Agent Platform API',
      description: 'Agent deployments of an organisation, capability profiles of its teams and their access requests. Authenticate with an API key in the `apikey` header.',
    },
    routes: async (v1, { db, cursors, scoredCursors, now }) => {
      await v1.register(agentRoutes, { agents: createAgentService({ db, cursors, now }) });
      await v1.register(profileRoutes, { profiles: createProfileService({ db, cursors, now }) });
      await v1.register(accessRequestRoutes, { requests: createAccessRequestService({ db, cursors: scoredCursors, now }) });
    },
  });
}
