// The stack the property-service benchmarks run against: an embedded PostgreSQL (fsync off) with the
// schema, a private redis-server, and the property API (webhooks, filesystem storage, job queue) on a
// random loopback port, with an account, an application and an API key of the given scopes
// (startServiceStack in ./support.ts, shared with the agent platform's stack).
import { buildPropertyApp, propertyDescriptor } from '@platform/property-service';
import { startServiceStack } from './support.js';

export interface PropertyStackOptions {
  /** Names the temp dirs (bench-<name>-…). */
  name: string;
  /** Scopes of the API key. */
  scopes: string[];
  /** Connections of the Prisma client of this process (default 20). */
  maxConnections?: number;
}

export type PropertyStack = Awaited<ReturnType<typeof startPropertyStack>>;

/** Starts the stack; `close` stops it in reverse order and removes the temp dirs (the benchmark stops its own processes first). */
export function startPropertyStack({ name, scopes, maxConnections }: PropertyStackOptions) {
  return startServiceStack({ name, scopes, maxConnections, service: propertyDescriptor, build: buildPropertyApp });
}
