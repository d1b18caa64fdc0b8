import type { Prisma } from '@platform/db';
import { notFound } from '@platform/http';
import { tenantRepository } from '@platform/resource';
import type { Columns } from './mapping.js';

export type AgentRow = Prisma.AgentDeploymentGetPayload<object>;

export const agentRepository = tenantRepository<AgentRow, Columns & { updated_at: Date }>({
  table: 'agent_deployments',
  list: 'agents',
  model: (db) => db.agentDeployment,
  notFound: () => notFound('No agent with this id.'),
  directSql: {}, // the hottest reads of the platform (bench/RESULTS.md)
});
