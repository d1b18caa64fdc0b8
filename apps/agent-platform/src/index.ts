import type { ServiceEntry } from '@platform/runtime';
import { buildAgentPlatformApp } from './app.js';

export { buildAgentPlatformApp, type AgentPlatformAppDeps } from './app.js';

export const agentPlatformService: ServiceEntry = {
  name: 'agent platform',
  port: (config) => config.agentPlatformPort,
  build: (deps) => buildAgentPlatformApp(deps),
};
