// The stack the agent-platform benchmarks run against: an embedded PostgreSQL (fsync off) with the
// schema, a private redis-server, and the agent-platform API (webhooks, filesystem storage, job
// queue) on a random loopback port, with an account, an application of the service `agent_platform`
// and an API key of the given scopes (startServiceStack in ./support.ts, shared with the property stack).
import { agentPlatformDescriptor, buildAgentPlatformApp } from '@platform/agent-platform';
import { startServiceStack } from './support.js';

export interface AgentPlatformStackOptions {
  /** Names the temp dirs (bench-<name>-…). */
  name: string;
  /** Scopes of the API key. */
  scopes: string[];
  /** Connections of the Prisma client of this process (default 20). */
  maxConnections?: number;
}

export type AgentPlatformStack = Awaited<ReturnType<typeof startAgentPlatformStack>>;

/** Starts the stack; `close` stops it in reverse order and removes the temp dirs. */
export function startAgentPlatformStack({ name, scopes, maxConnections }: AgentPlatformStackOptions) {
  return startServiceStack({
    name,
    scopes,
    maxConnections,
    service: agentPlatformDescriptor,
    build: buildAgentPlatformApp,
  });
}
