import type { ServiceEntry } from '@platform/runtime';
import { buildAgentPlatformApp } from './app.js';
import { agentPlatformDescriptor } from './descriptor.js';

export { buildAgentPlatformApp, type AgentPlatformAppDeps } from './app.js';
export { agentPlatformDescriptor } from './descriptor.js';

export const agentPlatformService: ServiceEntry = { descriptor: agentPlatformDescriptor, build: buildAgentPlatformApp };
